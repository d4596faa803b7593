/**
 * No Docker engine or cluster runs on the development machines, so the deployment files are
 * validated statically: they parse, reference what exists, and carry the operational settings
 * (health checks, probes, limits, non-root, read-only root filesystem) the architecture requires.
 * The kustomize overlays are rendered by a small renderer below (the subset of kustomize they use),
 * so that what a cluster would run, not only the base, is checked — e.g. that checkout never runs
 * against the fake PayPal.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, posix } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';

const root = join(__dirname, '..', '..');
const read = (p: string) => readFileSync(join(root, p), 'utf8');
/** The workspaces' folders, with `services/*`-style globs expanded as npm does (folders with a package.json). */
const workspaces: string[] = (JSON.parse(read('package.json')).workspaces as string[]).flatMap((ws) =>
  ws.endsWith('/*')
    ? readdirSync(join(root, ws.slice(0, -2)))
        .map((name) => `${ws.slice(0, -2)}/${name}`)
        .filter((dir) => existsSync(join(root, dir, 'package.json')))
    : [ws],
);
const services = readdirSync(join(root, 'services')).filter((s) =>
  existsSync(join(root, 'services', s, 'package.json')),
);

/** PayPal's REST bases: what a deployment may point checkout at (never the fake, never plain HTTP). */
const PAYPAL_SANDBOX = 'https://api-m.sandbox.paypal.com';
const PAYPAL_LIVE = 'https://api-m.paypal.com';
/** What only the fake PayPal uses: its credentials (checkout refuses them in production) and its package. */
const FAKE_PAYPAL_MARKERS = /fake-client-id|fake-client-secret|fake-paypal/;

type ComposeService = {
  image?: string;
  build?: { args?: { APP?: string } };
  command?: string[] | string;
  entrypoint?: string[] | string;
  healthcheck?: { test?: string[] };
  restart?: string;
  depends_on?: Record<string, { condition: string }>;
  environment?: Record<string, string> | string[];
  read_only?: boolean;
};
type ComposeFile = { services: Record<string, ComposeService>; volumes: Record<string, unknown> };

/** A compose service's environment as a map (the list form `KEY=VALUE` too). */
function composeEnv(svc: ComposeService): Record<string, string> {
  const env = svc.environment ?? {};
  if (!Array.isArray(env)) return env;
  return Object.fromEntries(env.map((kv) => [kv.split('=')[0], kv.slice(kv.indexOf('=') + 1)]));
}

/** Every compose file at the top level (docker-compose.yml and any override or variant beside it). */
const composeFiles = readdirSync(root).filter((f) => /^(docker-)?compose([.-].+)?\.ya?ml$/.test(f));

describe('docker-compose.yml', () => {
  const compose = parse(read('docker-compose.yml'), { merge: true }) as ComposeFile;
  const names = Object.keys(compose.services);

  it('runs real MongoDB 7, Redis 7 and RabbitMQ 3.13 with health checks', () => {
    expect(compose.services.mongo.image).toMatch(/^mongo:7/);
    expect(compose.services.redis.image).toMatch(/^redis:7/);
    expect(compose.services.rabbitmq.image).toMatch(/^rabbitmq:3\.13/);
    for (const infra of ['mongo', 'redis', 'rabbitmq']) expect(compose.services[infra].healthcheck).toBeDefined();
  });

  it('has every service of the repo, each built from an existing workspace, healthy before its dependants', () => {
    for (const s of services) expect(names).toContain(s);
    for (const [name, svc] of Object.entries(compose.services)) {
      if (svc.build) {
        const app = svc.build.args?.APP;
        expect(app && workspaces).toContain(app);
        expect(svc.read_only).toBe(true);
        if (svc.restart !== 'no')
          expect({ name, healthcheck: svc.healthcheck }).toEqual({ name, healthcheck: expect.anything() });
      }
      for (const [dep, { condition }] of Object.entries(svc.depends_on ?? {})) {
        expect(names).toContain(dep);
        expect(['service_healthy', 'service_completed_successfully']).toContain(condition);
      }
    }
  });

  it.each(services)(
    'runs %s like the others: its image, port and database, ready on /ready, after the infrastructure, before the gateway',
    (s) => {
      const svc = compose.services[s];
      const env = composeEnv(svc);
      expect(svc.build?.args?.APP).toBe(`services/${s}`);
      expect(svc.restart).toBe('unless-stopped');
      expect(env).toEqual(
        expect.objectContaining({
          NODE_ENV: 'production',
          PORT: expect.stringMatching(/^\d+$/),
          MONGO_URI: `mongodb://mongo:27017/shop_${s}`,
          REDIS_URL: expect.stringMatching(/^redis:\/\/redis:/),
          RABBITMQ_URL: expect.stringMatching(/@rabbitmq:5672$/),
          JWT_SECRET: expect.stringMatching(/^\$\{JWT_SECRET:\?/),
        }),
      );
      expect(svc.healthcheck?.test?.join(' ')).toContain(`http://127.0.0.1:${env.PORT}/ready`);
      for (const infra of ['mongo', 'redis', 'rabbitmq'])
        expect(svc.depends_on?.[infra]?.condition).toBe('service_healthy');
      expect(compose.services.gateway.depends_on?.[s]?.condition).toBe('service_healthy');
      expect(composeEnv(compose.services.gateway)[`${s.toUpperCase()}_URL`]).toBe(`http://${s}:${env.PORT}`);
    },
  );

  it('runs seed programs that exist in the source', () => {
    for (const svc of Object.values(compose.services)) {
      const command = Array.isArray(svc.command) ? svc.command : [];
      const script = command.find((c) => c.endsWith('.js'));
      if (!script) continue;
      expect(existsSync(join(root, script.replace('/dist/', '/src/').replace(/\.js$/, '.ts')))).toBe(true);
    }
  });

  it('points the gateway at every service by its compose name', () => {
    const env = composeEnv(compose.services.gateway);
    for (const s of services) expect(env[`${s.toUpperCase()}_URL`]).toMatch(new RegExp(`^http://${s}:\\d+$`));
  });

  it('runs checkout against PayPal itself: credentials required from the environment, sandbox unless told', () => {
    const env = composeEnv(compose.services.checkout);
    expect(env.PAYPAL_MODE).toBe('paypal');
    // `${VAR:?message}`: compose refuses to start without it, and there is no default to fall back to
    expect(env.PAYPAL_CLIENT_ID).toMatch(/^\$\{PAYPAL_CLIENT_ID:\?[^}]+\}$/);
    expect(env.PAYPAL_CLIENT_SECRET).toMatch(/^\$\{PAYPAL_CLIENT_SECRET:\?[^}]+\}$/);
    expect(env.PAYPAL_API_BASE).toBe(`\${PAYPAL_API_BASE:-${PAYPAL_SANDBOX}}`);
  });
});

describe.each(composeFiles)('%s never runs the fake PayPal', (file) => {
  const compose = parse(read(file), { merge: true }) as Partial<ComposeFile>;

  it('no service has PAYPAL_MODE=fake, the fake credentials, or the fake itself', () => {
    for (const [name, svc] of Object.entries(compose.services ?? {})) {
      const env = composeEnv(svc);
      expect({ name, PAYPAL_MODE: env.PAYPAL_MODE }).not.toEqual({ name, PAYPAL_MODE: expect.stringMatching(/fake/) });
      const runs = [svc.image, svc.build?.args?.APP, svc.command, svc.entrypoint, Object.values(env)];
      expect({ name, runs: JSON.stringify(runs) }).not.toEqual({
        name,
        runs: expect.stringMatching(FAKE_PAYPAL_MARKERS),
      });
    }
  });
});

describe('Dockerfile', () => {
  const dockerfile = read('Dockerfile');
  it('copies the package.json of every workspace before npm ci, so the install layer is complete', () => {
    for (const ws of workspaces) expect(dockerfile).toContain(`COPY ${ws}/package.json ${ws}/`);
  });
  it('runs as a non-root user', () => {
    expect(dockerfile).toMatch(/^USER node$/m);
  });
});

// --- k8s: a small kustomize -------------------------------------------------------------------------------

type K8s = any;
const KUSTOMIZATION_FIELDS = new Set(['apiVersion', 'kind', 'namespace', 'labels', 'resources', 'images', 'patches']);

/**
 * Renders a kustomization the way `kubectl kustomize` does, for the fields our overlays use: resources (files and
 * other kustomizations), images (name → newName/newTag) and JSON 6902 patches selected by kind and name. Anything
 * else fails loudly, so that a new kind of overlay is taught here rather than silently left unchecked.
 * (namespace and labels are accepted and not applied: no check below depends on them.)
 */
function kustomize(dir: string): K8s[] {
  const k = parse(read(`${dir}/kustomization.yaml`));
  const unknown = Object.keys(k).filter((f) => !KUSTOMIZATION_FIELDS.has(f));
  if (unknown.length)
    throw new Error(`${dir}/kustomization.yaml uses ${unknown.join(', ')}: teach kustomize() in deploy-config.spec.ts`);
  const docs: K8s[] = (k.resources ?? []).flatMap((r: string) => {
    const p = posix.normalize(posix.join(dir, r));
    if (!existsSync(join(root, p))) throw new Error(`${dir}/kustomization.yaml: resource ${r} does not exist`);
    return statSync(join(root, p)).isDirectory()
      ? kustomize(p)
      : parseAllDocuments(read(p))
          .map((d) => d.toJS())
          .filter(Boolean);
  });
  for (const image of k.images ?? []) {
    for (const c of docs.flatMap(containersOf)) {
      const [, name, tag] = /^(.*?)(?::([^:/]+))?$/.exec(c.image)!;
      if (name === image.name) c.image = `${image.newName ?? name}:${image.newTag ?? tag}`;
    }
  }
  for (const p of k.patches ?? []) {
    const ops = parse(p.path ? read(posix.join(dir, p.path)) : p.patch);
    if (!Array.isArray(ops)) throw new Error(`${dir}: only JSON 6902 patches are applied here (teach kustomize())`);
    const target = p.target ?? {};
    const extra = Object.keys(target).filter((f) => !['kind', 'name', 'group', 'version'].includes(f));
    if (extra.length) throw new Error(`${dir}: patch targets by ${extra.join(', ')} are not understood here`);
    const matches = (d: K8s) =>
      (!target.kind || d.kind === target.kind) &&
      (!target.name || new RegExp(`^(?:${target.name})$`).test(d.metadata.name));
    for (const d of docs.filter(matches)) applyJsonPatch(d, ops);
  }
  return docs;
}

function applyJsonPatch(doc: K8s, ops: { op: string; path: string; value?: unknown }[]): void {
  for (const { op, path, value } of ops) {
    const keys = path
      .split('/')
      .slice(1)
      .map((key) => key.replace(/~1/g, '/').replace(/~0/g, '~'));
    const last = keys.pop()!;
    const parent = keys.reduce((node, key) => {
      if (node?.[key] === undefined) throw new Error(`patch ${op} ${path}: ${key} is missing`);
      return node[key];
    }, doc);
    const index = last === '-' ? parent.length : Number(last);
    if (op === 'add') {
      if (Array.isArray(parent)) parent.splice(index, 0, value);
      else parent[last] = value;
    } else if (op === 'replace' || op === 'remove') {
      if (!(last in parent)) throw new Error(`patch ${op} ${path}: ${last} is missing`);
      if (op === 'replace') parent[last] = value;
      else if (Array.isArray(parent)) parent.splice(index, 1);
      else delete parent[last];
    } else throw new Error(`patch op ${op} is not applied here (teach applyJsonPatch())`);
  }
}

function podSpecOf(d: K8s): K8s | undefined {
  return d.kind === 'CronJob' ? d.spec.jobTemplate.spec.template.spec : d.spec?.template?.spec;
}
function containersOf(d: K8s): K8s[] {
  const pod = podSpecOf(d);
  return pod ? [...(pod.initContainers ?? []), ...(pod.containers ?? [])] : [];
}

type EnvValue = { value?: string; secret?: { name: string; key: string }; unknown?: true };
/** A container's environment as Kubernetes builds it: envFrom in order (later wins), then env (wins over envFrom). */
function effectiveEnv(docs: K8s[], container: K8s): Record<string, EnvValue> {
  const configMap = (name: string) => {
    const cm = docs.find((d) => d.kind === 'ConfigMap' && d.metadata.name === name);
    if (!cm) throw new Error(`ConfigMap ${name} (used by ${container.name}) is not in the manifests`);
    return (cm.data ?? {}) as Record<string, string>;
  };
  const env: Record<string, EnvValue> = {};
  for (const from of container.envFrom ?? []) {
    if (!from.configMapRef) continue; // a Secret's keys are not known here; nothing below may rely on them
    for (const [key, value] of Object.entries(configMap(from.configMapRef.name)))
      env[`${from.prefix ?? ''}${key}`] = { value };
  }
  for (const e of container.env ?? []) {
    if (e.value !== undefined) env[e.name] = { value: String(e.value) };
    else if (e.valueFrom?.configMapKeyRef)
      env[e.name] = { value: configMap(e.valueFrom.configMapKeyRef.name)[e.valueFrom.configMapKeyRef.key] };
    else if (e.valueFrom?.secretKeyRef) env[e.name] = { secret: e.valueFrom.secretKeyRef };
    else env[e.name] = { unknown: true };
  }
  return env;
}

/** Whether a NetworkPolicy's podSelector selects pods with these labels. */
function selects(policy: K8s, labels: Record<string, string>): boolean {
  const selector = policy.spec.podSelector ?? {};
  if (selector.matchExpressions) throw new Error(`${policy.metadata.name}: matchExpressions are not understood here`);
  return Object.entries(selector.matchLabels ?? {}).every(([k, v]) => labels[k] === v);
}

describe('k8s (kustomize)', () => {
  const base = parse(read('k8s/base/kustomization.yaml')) as { resources: string[] };
  const docs = base.resources.flatMap((file) => {
    expect(existsSync(join(root, 'k8s/base', file))).toBe(true);
    return parseAllDocuments(read(`k8s/base/${file}`)).map((d) => d.toJS());
  });
  const deployments = docs.filter((d) => d.kind === 'Deployment');
  const policies = docs.filter((d) => d.kind === 'NetworkPolicy');
  const gatewayLabels = deployments.find((d) => d.metadata.name === 'gateway')?.spec.template.metadata.labels;

  it('deploys the gateway and every service', () => {
    const names = deployments.map((d) => d.metadata.name);
    for (const s of [...services, 'gateway']) expect(names).toContain(s);
  });

  it('gives every Deployment probes, limits, a non-root user and a read-only root filesystem', () => {
    for (const d of deployments) {
      const pod = d.spec.template.spec;
      expect(pod.securityContext.runAsNonRoot).toBe(true);
      for (const c of pod.containers) {
        expect({ name: d.metadata.name, readiness: !!c.readinessProbe, liveness: !!c.livenessProbe }).toEqual({
          name: d.metadata.name,
          readiness: true,
          liveness: true,
        });
        expect(c.resources.limits).toEqual(
          expect.objectContaining({ cpu: expect.anything(), memory: expect.anything() }),
        );
        expect(c.securityContext).toEqual(
          expect.objectContaining({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false }),
        );
      }
    }
  });

  it('has an HPA and a PDB per Deployment, a default-deny NetworkPolicy and an Ingress to the gateway only', () => {
    for (const d of deployments) {
      expect(
        docs.some((x) => x.kind === 'HorizontalPodAutoscaler' && x.spec.scaleTargetRef.name === d.metadata.name),
      ).toBe(true);
      expect(docs.some((x) => x.kind === 'PodDisruptionBudget' && x.metadata.name === d.metadata.name)).toBe(true);
    }
    expect(docs.some((x) => x.kind === 'NetworkPolicy' && Object.keys(x.spec.podSelector).length === 0)).toBe(true);
    const ingress = docs.find((x) => x.kind === 'Ingress');
    const backends = ingress.spec.rules.flatMap((r: any) => r.http.paths.map((p: any) => p.backend.service.name));
    expect(new Set(backends)).toEqual(new Set(['gateway']));
  });

  describe.each(services)('%s', (s) => {
    const d = deployments.find((x) => x.metadata.name === s);
    const labels = d?.spec.template.metadata.labels ?? {};
    const container = d?.spec.template.spec.containers.find((c: any) => c.name === s);
    const httpPort = container?.ports?.find((p: any) => p.name === 'http')?.containerPort;

    it('runs like the others: a service-tier pod on its `http` port, /ready and /health probes, its own database', () => {
      expect(labels).toEqual(expect.objectContaining({ 'app.kubernetes.io/name': s, tier: 'service' }));
      expect(d.spec.selector.matchLabels).toEqual({ 'app.kubernetes.io/name': s });
      expect(httpPort).toEqual(expect.any(Number));
      const env = effectiveEnv(docs, container);
      expect(env.PORT).toEqual({ value: String(httpPort) });
      expect(env.MONGO_URI).toEqual({ secret: { name: 'shop-secrets', key: `MONGO_URI_${s.toUpperCase()}` } });
      for (const name of ['JWT_SECRET', 'REDIS_URL', 'RABBITMQ_URL'])
        expect(env[name]).toEqual({ secret: { name: 'shop-secrets', key: name } });
      expect(env.NODE_ENV).toEqual({ value: 'production' });
      expect(container.readinessProbe.httpGet).toEqual({ path: '/ready', port: 'http' });
      expect(container.livenessProbe.httpGet).toEqual({ path: '/health', port: 'http' });
      const service = docs.find((x) => x.kind === 'Service' && x.metadata.name === s);
      expect(service.spec.selector).toEqual({ 'app.kubernetes.io/name': s });
      expect(service.spec.ports).toEqual([{ name: 'http', port: httpPort, targetPort: 'http' }]);
    });

    it('accepts HTTP from the gateway alone, on its `http` port', () => {
      const rules = policies
        .filter((p) => p.spec.policyTypes?.includes('Ingress') && selects(p, labels))
        .flatMap((p) => p.spec.ingress ?? []);
      for (const rule of rules)
        for (const from of rule.from ?? [{}]) {
          expect(from.namespaceSelector ?? from.ipBlock).toBeUndefined();
          expect(gatewayLabels).toEqual(expect.objectContaining(from.podSelector?.matchLabels ?? { all: 'pods' }));
        }
      const ports = rules.flatMap((r: any) => (r.ports ?? []).map((p: any) => p.port));
      expect(ports.some((p: unknown) => p === 'http' || p === httpPort)).toBe(true);
    });

    it(`sends only to DNS, MongoDB, Redis and RabbitMQ${s === 'checkout' ? ', and PayPal over HTTPS' : ''}`, () => {
      const egress = policies.filter((p) => p.spec.policyTypes?.includes('Egress') && selects(p, labels));
      expect(egress.length).toBeGreaterThan(0);
      const rules = egress.flatMap((p) => p.spec.egress ?? []);
      for (const rule of rules) expect(rule.ports?.length).toBeGreaterThan(0); // a rule without ports opens them all
      const ports = new Set(rules.flatMap((r: any) => r.ports.map((p: any) => `${p.protocol ?? 'TCP'}/${p.port}`)));
      const allowed = ['UDP/53', 'TCP/53', 'TCP/27017', 'TCP/6379', 'TCP/5672', 'TCP/5671'];
      if (s === 'checkout') allowed.push('TCP/443');
      for (const port of ports) expect(allowed).toContain(port);
      for (const needed of ['UDP/53', 'TCP/27017', 'TCP/6379', 'TCP/5672']) expect(ports).toContain(needed);
      expect(ports.has('TCP/443')).toBe(s === 'checkout');
    });
  });

  it('takes secrets by reference only', () => {
    expect(docs.some((x) => x.kind === 'Secret')).toBe(false);
    for (const d of deployments) {
      for (const c of d.spec.template.spec.containers) {
        for (const e of c.env ?? [])
          if (/SECRET|URI|URL/.test(e.name) && e.name !== 'PORT' && e.value) expect(e.value).not.toMatch(/:\/\/.*@/);
      }
    }
  });

  it('documents every key of the shop-secrets Secret that a workload needs (k8s/base/config.yaml)', () => {
    const documented = read('k8s/base/config.yaml');
    const keys = docs
      .flatMap(containersOf)
      .flatMap((c) => c.env ?? [])
      .map((e: any) => e.valueFrom?.secretKeyRef)
      .filter((ref: any) => ref && ref.name === 'shop-secrets' && !ref.optional)
      .map((ref: any) => ref.key);
    expect(keys.length).toBeGreaterThan(0);
    for (const key of new Set(keys)) expect(documented).toContain(`--from-literal=${key}=`);
  });

  it('runs seed Jobs with seed programs that exist in the source', () => {
    const jobs = docs.filter((x) => x.kind === 'Job');
    expect(jobs.length).toBeGreaterThan(0);
    for (const job of jobs) {
      const [container] = job.spec.template.spec.containers;
      const script = (container.command as string[]).find((c) => c.endsWith('.js'))!;
      expect(existsSync(join(root, script.replace('/dist/', '/src/').replace(/\.js$/, '.ts')))).toBe(true);
      expect(container.securityContext.readOnlyRootFilesystem).toBe(true);
    }
  });

  it.each(['dev', 'prod'])('overlay %s builds on the base', (overlay) => {
    const k = parse(read(`k8s/overlays/${overlay}/kustomization.yaml`)) as { resources: string[] };
    expect(k.resources).toContain('../../base');
  });

  describe.each([
    ['dev', PAYPAL_SANDBOX],
    ['prod', PAYPAL_LIVE],
  ])('overlay %s, rendered', (overlay, paypalBase) => {
    let rendered: K8s[] = [];
    let renderError: unknown;
    try {
      rendered = kustomize(`k8s/overlays/${overlay}`);
    } catch (err) {
      renderError = err;
    }

    it('renders', () => {
      if (renderError) throw renderError;
    });

    it('deploys every Deployment of the base', () => {
      const names = (ds: K8s[]) => ds.filter((d) => d.kind === 'Deployment').map((d) => d.metadata.name);
      expect(names(rendered).sort()).toEqual(names(docs).sort());
    });

    it(`runs checkout in production against PayPal itself (${paypalBase}), credentials from shop-secrets`, () => {
      const checkout = rendered.find((d) => d.kind === 'Deployment' && d.metadata.name === 'checkout');
      const env = effectiveEnv(rendered, containersOf(checkout)[0]);
      expect(env.NODE_ENV).toEqual({ value: 'production' });
      expect(env.PAYPAL_MODE).toEqual({ value: 'paypal' });
      expect(env.PAYPAL_API_BASE).toEqual({ value: paypalBase });
      expect(env.PAYPAL_CLIENT_ID).toEqual({ secret: { name: 'shop-secrets', key: 'PAYPAL_CLIENT_ID' } });
      expect(env.PAYPAL_CLIENT_SECRET).toEqual({ secret: { name: 'shop-secrets', key: 'PAYPAL_CLIENT_SECRET' } });
    });

    it('runs nothing with PAYPAL_MODE=fake, the fake credentials, or the fake PayPal itself', () => {
      expect(rendered.length).toBeGreaterThan(0);
      for (const cm of rendered.filter((d) => d.kind === 'ConfigMap')) {
        const data = JSON.stringify({ name: cm.metadata.name, mode: cm.data?.PAYPAL_MODE, values: cm.data });
        expect(data).not.toMatch(FAKE_PAYPAL_MARKERS);
        expect(cm.data?.PAYPAL_MODE ?? 'paypal').toBe('paypal');
      }
      for (const d of rendered) {
        for (const c of containersOf(d)) {
          const name = `${d.kind}/${d.metadata.name}/${c.name}`;
          const env = effectiveEnv(rendered, c);
          expect({ name, mode: env.PAYPAL_MODE?.value }).not.toEqual({ name, mode: expect.stringMatching(/fake/) });
          const runs = JSON.stringify([c.image, c.command, c.args, Object.values(env).map((e) => e.value)]);
          expect({ name, runs }).not.toEqual({ name, runs: expect.stringMatching(FAKE_PAYPAL_MARKERS) });
        }
      }
    });

    if (overlay === 'prod')
      it('runs released images only (every base image mapped to the registry with a version)', () => {
        for (const c of rendered.flatMap(containersOf)) expect(c.image).toMatch(/^registry\.[^/]+\/.+:\d[\w.-]*$/);
      });
  });

  it('mentions the fake PayPal nowhere in k8s/ (its credentials, its package, PAYPAL_MODE=fake)', () => {
    const files = (dir: string): string[] =>
      readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? files(`${dir}/${e.name}`) : [`${dir}/${e.name}`],
      );
    for (const file of files('k8s')) {
      const text = read(file)
        .split('\n')
        .filter((line) => !/^\s*#/.test(line))
        .join('\n');
      expect({ file, fake: FAKE_PAYPAL_MARKERS.test(text) || /PAYPAL_MODE\W+fake/.test(text) }).toEqual({
        file,
        fake: false,
      });
    }
  });
});
