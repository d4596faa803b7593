/**
 * No Docker engine or cluster runs on the development machines, so the deployment files are
 * validated statically: against their schemas, with the libraries the real tools use (tools/deploycheck, Go:
 * the kustomize library renders every overlay and each object is decoded strictly against the Kubernetes API
 * types; compose-go loads the compose files against the Compose specification's JSON schema), then for the
 * operational settings (health checks, probes, limits, non-root, read-only root filesystem, network policies)
 * the architecture requires, and for an environment each program's own configuration loader accepts.
 * What a cluster would run, not only the base, is checked — e.g. that checkout never runs against the fake PayPal.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { parse, parseAllDocuments } from 'yaml';
import { loadConfig as loadGatewayConfig } from '../../gateway/src/config';
import { NODE_FLAGS, nodeFlags } from '../lib/node-flags.cjs';
import { WORKER_SERVICES } from '../../packages/contracts/src/services';
import { loadConfig, ServiceConfig } from '../../packages/nest-common/src/config/service-config';

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
/** The services that serve no /api route (packages/contracts WORKER_SERVICES): the gateway neither calls nor waits for them. */
const workers: readonly string[] = WORKER_SERVICES;
/** The services behind the gateway. */
const proxied = services.filter((s) => !workers.includes(s));
/** Where each service may send besides DNS, MongoDB, Redis and RabbitMQ: PayPal over HTTPS, a mail server over SMTP. */
const EXTRA_EGRESS: Record<string, string[]> = { checkout: ['TCP/443'], notifications: ['TCP/587', 'TCP/465'] };

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

/** The replica set every deployment's MongoDB runs as (docs/mongodb.md). */
const REPLICA_SET = 'rs0';

type StandIn = { initiated: boolean; primary: boolean; statusError?: string };
type MongoshRun = { initiated: unknown[]; threw?: string };
/**
 * Runs a `mongosh --eval` script against a stand-in for mongod's shell helpers (rs.status, rs.initiate, db.hello,
 * db.adminCommand): what it initiated and whether it failed (mongosh exits 1 on an uncaught error, which a health
 * check or probe reads as "not ready"). rs.status() throws NotYetInitialized (or `statusError`) until initiated,
 * as mongod's replSetGetStatus does.
 */
function runMongosh(script: string, server: StandIn): MongoshRun {
  const run: MongoshRun = { initiated: [] };
  const rs = {
    status: () => {
      if (server.initiated) return { ok: 1, set: REPLICA_SET };
      throw Object.assign(new Error('no replset config has been received'), {
        codeName: server.statusError ?? 'NotYetInitialized',
      });
    },
    initiate: (config: unknown) => {
      run.initiated.push(config);
      server.initiated = true;
      return { ok: 1 };
    },
  };
  const db = {
    hello: () => ({ isWritablePrimary: server.initiated && server.primary }),
    adminCommand: () => ({ ok: 1 }),
  };
  try {
    runInNewContext(script, { rs, db });
  } catch (err) {
    run.threw = (err as Error).message;
  }
  return run;
}

/** What a replica-set init script and a PRIMARY-aware readiness check must do, whatever the deployment. */
function expectInitiatesOnce(script: string, member: string) {
  const fresh: StandIn = { initiated: false, primary: false };
  // first run on an empty data volume: initiates the one-member set with this member's stable name
  expect(runMongosh(script, fresh).initiated).toEqual([{ _id: REPLICA_SET, members: [{ _id: 0, host: member }] }]);
  // later runs (a restart, the next health check): the set exists, so it is left alone
  expect(runMongosh(script, fresh).initiated).toEqual([]);
  // any other failure of rs.status() (auth, a network error) is not taken for "not initiated"
  const unreachable = runMongosh(script, { initiated: false, primary: false, statusError: 'Unauthorized' });
  expect(unreachable).toEqual({ initiated: [], threw: expect.any(String) });
}

/** A PRIMARY-aware check fails until this member is the writable primary, then passes. */
function expectReadyOnlyAsPrimary(script: string) {
  expect(runMongosh(script, { initiated: true, primary: false }).threw).toEqual(expect.any(String));
  expect(runMongosh(script, { initiated: true, primary: true }).threw).toBeUndefined();
}

/** A mongodb:// URL's parts (one host here: a single-node set). */
function mongoUrl(url: string) {
  const u = new URL(url);
  return {
    scheme: u.protocol,
    host: u.host,
    database: u.pathname.slice(1),
    options: Object.fromEntries(u.searchParams),
  };
}

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
    'runs %s like the others: its image, port and database, ready on /ready, after the infrastructure (before the gateway when behind it)',
    (s) => {
      const svc = compose.services[s];
      const env = composeEnv(svc);
      expect(svc.build?.args?.APP).toBe(`services/${s}`);
      expect(svc.restart).toBe('unless-stopped');
      expect(env).toEqual(
        expect.objectContaining({
          NODE_ENV: 'production',
          PORT: expect.stringMatching(/^\d+$/),
          MONGO_URI: `mongodb://mongo:27017/shop_${s}?replicaSet=${REPLICA_SET}`,
          REDIS_URL: expect.stringMatching(/^redis:\/\/redis:/),
          RABBITMQ_URL: expect.stringMatching(/@rabbitmq:5672$/),
          JWT_SECRET: expect.stringMatching(/^\$\{JWT_SECRET:\?/),
        }),
      );
      expect(svc.healthcheck?.test?.join(' ')).toContain(`http://127.0.0.1:${env.PORT}/ready`);
      for (const infra of ['mongo', 'redis', 'rabbitmq'])
        expect(svc.depends_on?.[infra]?.condition).toBe('service_healthy');
      if (workers.includes(s)) {
        expect(compose.services.gateway.depends_on?.[s]).toBeUndefined();
        expect(composeEnv(compose.services.gateway)[`${s.toUpperCase()}_URL`]).toBeUndefined();
      } else {
        expect(compose.services.gateway.depends_on?.[s]?.condition).toBe('service_healthy');
        expect(composeEnv(compose.services.gateway)[`${s.toUpperCase()}_URL`]).toBe(`http://${s}:${env.PORT}`);
      }
    },
  );

  it(`runs MongoDB as the single-node replica set ${REPLICA_SET}: mongod --replSet, initiated once by its health check, healthy only as PRIMARY`, () => {
    const mongo = compose.services.mongo;
    const command = Array.isArray(mongo.command) ? mongo.command : [];
    expect(command[0]).toBe('mongod');
    expect(command.slice(1).join(' ')).toContain(`--replSet ${REPLICA_SET}`);
    expect(command).toContain('--bind_ip_all');
    const test = mongo.healthcheck?.test ?? [];
    expect(test.slice(0, 4)).toEqual(['CMD', 'mongosh', '--quiet', '--eval']);
    // the member's name is the compose service's, which every container of the project resolves
    expectInitiatesOnce(test[4], 'mongo:27017');
    expectReadyOnlyAsPrimary(test[4]);
  });

  it(`gives every program a MongoDB URL on that set (replicaSet=${REPLICA_SET}), started once it is healthy`, () => {
    const withMongo = Object.entries(compose.services).filter(([, svc]) => composeEnv(svc).MONGO_URI);
    expect(withMongo.length).toBeGreaterThanOrEqual(services.length);
    for (const [name, svc] of withMongo) {
      const url = mongoUrl(composeEnv(svc).MONGO_URI);
      expect({ name, ...url }).toEqual({
        name,
        scheme: 'mongodb:',
        host: 'mongo:27017',
        database: expect.stringMatching(/^shop_[a-z]+$/),
        options: { replicaSet: REPLICA_SET },
      });
      expect({ name, mongo: svc.depends_on?.mongo?.condition }).toEqual({ name, mongo: 'service_healthy' });
    }
  });

  it('sends email to its own Mailpit unless SMTP_URL names another server, whose inbox only this host sees', () => {
    const env = composeEnv(compose.services.notifications);
    expect(env.SMTP_URL).toBe('${SMTP_URL:-smtp://mailpit:1025}');
    expect(compose.services.mailpit.image).toMatch(/^axllent\/mailpit:v1\.33/);
    expect(compose.services.mailpit.healthcheck).toBeDefined();
    expect((compose.services.mailpit as { ports?: string[] }).ports).toEqual(['127.0.0.1:8025:8025']);
  });

  it('runs seed programs that exist in the source', () => {
    for (const svc of Object.values(compose.services)) {
      const command = Array.isArray(svc.command) ? svc.command : [];
      const script = command.find((c) => c.endsWith('.js'));
      if (!script) continue;
      expect(existsSync(join(root, script.replace('/dist/', '/src/').replace(/\.js$/, '.ts')))).toBe(true);
    }
  });

  it('points the gateway at every service behind it by its compose name', () => {
    const env = composeEnv(compose.services.gateway);
    for (const s of proxied) expect(env[`${s.toUpperCase()}_URL`]).toMatch(new RegExp(`^http://${s}:\\d+$`));
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

describe('V8 flags: each Node process runs with the flags npm start gives it (scripts/lib/node-flags.cjs)', () => {
  const imageFlags = /^ENV .*\bNODE_OPTIONS=(\S+)$/m.exec(read('Dockerfile'))?.[1];
  const compose = parse(read('docker-compose.yml'), { merge: true }) as ComposeFile;
  const k8s = (parse(read('k8s/base/kustomization.yaml')) as { resources: string[] }).resources.flatMap((file) =>
    parseAllDocuments(read(`k8s/base/${file}`)).map((d) => d.toJS()),
  );
  const processes = [...services, 'gateway'];

  it('the image sets the flags every process shares', () => {
    expect(imageFlags).toBe(NODE_FLAGS);
  });
  it.each(processes)('%s under docker compose', (name) => {
    expect(composeEnv(compose.services[name]).NODE_OPTIONS ?? imageFlags).toBe(nodeFlags(name));
  });
  it.each(processes)('%s on Kubernetes', (name) => {
    const deployment = k8s.find((d) => d.kind === 'Deployment' && d.metadata.name === name);
    const env = effectiveEnv(k8s, containersOf(deployment)[0]);
    expect(env.NODE_OPTIONS?.value ?? imageFlags).toBe(nodeFlags(name));
  });
});

// --- the deployment files' checker (tools/deploycheck) -----------------------------------------------------

type K8s = any;

/**
 * Runs tools/deploycheck (built into .tools/bin when missing or stale by scripts/lib/deploycheck.mjs, a few minutes
 * from a cold Go cache): `kustomize DIR...` renders with the kustomize library and decodes each object strictly
 * against the Kubernetes API types; `compose FILE...` loads with compose-go against the Compose specification's
 * JSON schema, interpolating from `env`.
 */
function deploycheck<T>(args: string[], env: Record<string, string> = {}): T {
  const out = spawnSync(process.execPath, [join(root, 'scripts/lib/deploycheck.mjs'), ...args], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    timeout: 15 * 60_000,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', GOPATH: process.env.GOPATH ?? '', ...env },
  });
  if (out.status !== 0) throw new Error(`deploycheck ${args.join(' ')} failed (${out.status}): ${out.stderr}`);
  return JSON.parse(out.stdout) as T;
}

type Rendered = { dir: string; objects: K8s[]; errors: string[] };
const OVERLAYS = ['dev', 'prod'] as const;
const KUSTOMIZATIONS = ['k8s/base', ...OVERLAYS.map((o) => `k8s/overlays/${o}`)];
const rendered: Record<string, Rendered> = {};
let renderFailure: unknown;
try {
  for (const r of deploycheck<Rendered[]>(['kustomize', ...KUSTOMIZATIONS])) rendered[r.dir] = r;
} catch (err) {
  renderFailure = err;
}
const objectsOf = (dir: string): K8s[] => {
  if (renderFailure) throw renderFailure;
  return rendered[dir].objects;
};

const kubectl = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' }).status === 0;

/** What each workload's program reads: the service's config class (or the gateway's loader), run on an env. */
type ConfigCheck = (env: Record<string, string>) => string[];
function configCheckOf(app: string): ConfigCheck {
  const problemsOf = (load: () => unknown): string[] => {
    try {
      load();
      return [];
    } catch (err) {
      return (err as { problems?: string[] }).problems ?? [String(err)];
    }
  };
  if (app === 'gateway') return (env) => problemsOf(() => loadGatewayConfig(env));
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- each service's own config class, found by name
  const module = require(join(root, 'services', app, 'src/config', `${app}.config`)) as Record<string, unknown>;
  const cls = Object.values(module).find(
    (v): v is new () => ServiceConfig => typeof v === 'function' && v.prototype instanceof ServiceConfig,
  );
  if (!cls) throw new Error(`services/${app}/src/config/${app}.config.ts exports no ServiceConfig class`);
  return (env) => problemsOf(() => loadConfig(cls, env));
}

/**
 * The problems the program's own configuration loader finds in an environment. Values from a Secret whose content
 * is not in the manifests (prod) are unknown: they count as present, and a problem about their value is not one.
 */
function configProblems(app: string, env: Record<string, string>, unknownKeys: string[] = []): string[] {
  const filled = { ...env };
  for (const key of unknownKeys) filled[key] ??= 'from-a-secret';
  return configCheckOf(app)(filled).filter((p) => !unknownKeys.some((key) => p.startsWith(`${key} `)));
}

describe('docker-compose.yml against the Compose specification (compose-go: JSON schema, interpolation)', () => {
  type Loaded = { file: string; project: { services: Record<string, ComposeService> } | null; errors: string[] };
  const checkEnv = {
    JWT_SECRET: 'compose-check-7c1e9a3f5b2d8e4a6c0f9b1d7e3a5c8f',
    PAYPAL_CLIENT_ID: 'a-sandbox-client-id',
    PAYPAL_CLIENT_SECRET: 'a-sandbox-secret',
  };
  let loaded: Loaded[] = [];
  let bare: Loaded[] = [];
  let failure: unknown;
  beforeAll(() => {
    try {
      loaded = deploycheck<Loaded[]>(['compose', ...composeFiles], checkEnv);
      bare = deploycheck<Loaded[]>(['compose', 'docker-compose.yml']);
    } catch (err) {
      failure = err;
    }
  });

  it.each(composeFiles)('%s is valid (no unknown or misspelled field, every reference resolves)', (file) => {
    if (failure) throw failure;
    expect(loaded.find((l) => l.file === file)?.errors).toEqual([]);
  });

  it('refuses to start without JWT_SECRET and the PayPal credentials', () => {
    if (failure) throw failure;
    const [{ errors }] = bare;
    for (const name of ['JWT_SECRET', 'PAYPAL_CLIENT_ID', 'PAYPAL_CLIENT_SECRET'])
      expect(errors.join('\n')).toContain(`required variable ${name} is missing a value`);
  });

  it('gives every service and the gateway an environment their own configuration loader accepts', () => {
    if (failure) throw failure;
    const project = loaded.find((l) => l.file === 'docker-compose.yml')?.project;
    expect(project).toBeTruthy();
    for (const [name, svc] of Object.entries(project!.services)) {
      const app = svc.build?.args?.APP?.replace(/^services\//, '');
      if (!app || (app !== 'gateway' && !services.includes(app))) continue;
      const env = Object.fromEntries(Object.entries(composeEnv(svc)).map(([k, v]) => [k, String(v ?? '')]));
      expect({ service: name, problems: configProblems(app, env) }).toEqual({ service: name, problems: [] });
    }
  });
});
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

    const extra = EXTRA_EGRESS[s] ?? [];
    it(`sends only to DNS, MongoDB, Redis and RabbitMQ${extra.length ? `, and ${extra.join(', ')}` : ''}`, () => {
      const egress = policies.filter((p) => p.spec.policyTypes?.includes('Egress') && selects(p, labels));
      expect(egress.length).toBeGreaterThan(0);
      const rules = egress.flatMap((p) => p.spec.egress ?? []);
      for (const rule of rules) expect(rule.ports?.length).toBeGreaterThan(0); // a rule without ports opens them all
      const ports = new Set(rules.flatMap((r: any) => r.ports.map((p: any) => `${p.protocol ?? 'TCP'}/${p.port}`)));
      const allowed = ['UDP/53', 'TCP/53', 'TCP/27017', 'TCP/6379', 'TCP/5672', 'TCP/5671', ...extra];
      for (const port of ports) expect(allowed).toContain(port);
      for (const needed of ['UDP/53', 'TCP/27017', 'TCP/6379', 'TCP/5672', ...extra]) expect(ports).toContain(needed);
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

  it.each(KUSTOMIZATIONS)(
    '%s renders, and every object is valid against the Kubernetes API (strict: unknown fields, types, required)',
    (dir) => {
      objectsOf(dir);
      expect(rendered[dir].errors).toEqual([]);
      expect(rendered[dir].objects.length).toBeGreaterThan(0);
    },
  );

  (kubectl ? it.each(KUSTOMIZATIONS) : it.skip.each(KUSTOMIZATIONS))(
    '%s renders the same with `kubectl kustomize` (where kubectl is installed)',
    (dir) => {
      const out = spawnSync('kubectl', ['kustomize', dir], {
        cwd: root,
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      });
      expect(out.stderr).toBe('');
      const id = (d: K8s) => `${d.kind}/${d.metadata.namespace ?? ''}/${d.metadata.name}`;
      const sorted = (ds: K8s[]) => [...ds].sort((a, b) => id(a).localeCompare(id(b)));
      const byKubectl = parseAllDocuments(out.stdout)
        .map((d) => d.toJS())
        .filter(Boolean);
      expect(sorted(byKubectl)).toEqual(sorted(objectsOf(dir)));
    },
  );

  describe.each([
    ['dev', PAYPAL_SANDBOX],
    ['prod', PAYPAL_LIVE],
  ])('overlay %s, rendered', (overlay, paypalBase) => {
    let rendered: K8s[] = [];
    beforeAll(() => {
      rendered = objectsOf(`k8s/overlays/${overlay}`);
    });

    it('deploys every Deployment of the base', () => {
      const names = (ds: K8s[]) => ds.filter((d) => d.kind === 'Deployment').map((d) => d.metadata.name);
      expect(names(rendered).sort()).toEqual(names(docs).sort());
    });

    it('gives every service, seed Job and the gateway an environment their own configuration loader accepts', () => {
      // the Secret's content where the overlay generates it (dev); otherwise its keys are known, not its values
      const secrets = new Map<string, Record<string, string>>(
        rendered
          .filter((d) => d.kind === 'Secret')
          .map((d) => [
            d.metadata.name,
            Object.fromEntries(
              Object.entries((d.data ?? {}) as Record<string, string>).map(([k, v]) => [
                k,
                Buffer.from(v, 'base64').toString(),
              ]),
            ),
          ]),
      );
      const workloads = rendered.filter((d) => ['Deployment', 'Job'].includes(d.kind));
      let checked = 0;
      for (const d of workloads) {
        const app = d.metadata.name.replace(/-seed$/, '');
        if (app !== 'gateway' && !services.includes(app)) continue;
        const container = containersOf(d)[0];
        const env: Record<string, string> = {};
        const unknown: string[] = [];
        for (const [name, e] of Object.entries(effectiveEnv(rendered, container))) {
          if (e.value !== undefined) env[name] = e.value;
          else if (e.secret && secrets.has(e.secret.name)) {
            const value = secrets.get(e.secret.name)![e.secret.key];
            if (value !== undefined) env[name] = value;
          } else unknown.push(name);
        }
        const workload = `${d.kind}/${d.metadata.name}`;
        expect({ workload, problems: configProblems(app, env, unknown) }).toEqual({ workload, problems: [] });
        checked += 1;
      }
      expect(checked).toBeGreaterThanOrEqual(services.length + 1);
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

    if (overlay === 'prod')
      it('takes MongoDB, Redis and RabbitMQ as external services: no StatefulSet, no Secret generated', () => {
        expect(rendered.filter((d) => ['StatefulSet', 'Secret'].includes(d.kind))).toEqual([]);
      });

    if (overlay === 'dev') {
      const INFRA = { mongo: 27017, redis: 6379, rabbitmq: 5672 } as const;

      it('runs the locally built images (tag dev: pulled only when not loaded into the cluster)', () => {
        for (const d of rendered.filter((x) => ['Deployment', 'Job'].includes(x.kind)))
          for (const c of containersOf(d)) expect(c.image).toMatch(/^nfl-shop\/[a-z]+:dev$/);
      });

      it.each(Object.entries(INFRA))(
        'runs %s as a StatefulSet with a volume, a Service, probes, limits and a non-root user',
        (name, port) => {
          const sts = rendered.find((d) => d.kind === 'StatefulSet' && d.metadata.name === name);
          expect(sts.metadata.namespace).toBe('nfl-shop');
          const pod = sts.spec.template.spec;
          expect(pod.securityContext.runAsNonRoot).toBe(true);
          const [c] = pod.containers;
          expect(c.readinessProbe && c.livenessProbe).toBeTruthy();
          expect(c.resources.limits).toEqual(
            expect.objectContaining({ cpu: expect.anything(), memory: expect.anything() }),
          );
          expect(c.securityContext.allowPrivilegeEscalation).toBe(false);
          const [claim] = sts.spec.volumeClaimTemplates;
          expect(c.volumeMounts.map((m: K8s) => m.name)).toContain(claim.metadata.name);
          const service = rendered.find((d) => d.kind === 'Service' && d.metadata.name === name);
          expect(sts.spec.serviceName).toBe(name);
          expect(service.spec.selector).toEqual(sts.spec.selector.matchLabels);
          expect(service.spec.ports.map((p: K8s) => p.port)).toContain(port);
        },
      );

      it(`runs MongoDB as the single-node replica set ${REPLICA_SET}: initiated once under the pod's stable name, ready only as PRIMARY`, () => {
        const sts = rendered.find((d) => d.kind === 'StatefulSet' && d.metadata.name === 'mongo');
        const [c] = sts.spec.template.spec.containers;
        expect(c.args.join(' ')).toContain(`--replSet ${REPLICA_SET}`);
        expect(c.args).toContain('--bind_ip_all');
        // the member's name: the pod's DNS name through the headless Service, which exists before the pod is ready
        // (rs.initiate and the election need it) — Kubernetes expands $(VAR) from the variables defined before
        const service = rendered.find((d) => d.kind === 'Service' && d.metadata.name === sts.spec.serviceName);
        expect(service.spec.clusterIP).toBe('None');
        expect(service.spec.publishNotReadyAddresses).toBe(true);
        const env = Object.fromEntries((c.env as K8s[]).map((e) => [e.name, e]));
        expect(env.POD_NAME.valueFrom).toEqual({ fieldRef: { fieldPath: 'metadata.name' } });
        expect(env.POD_NAMESPACE.valueFrom).toEqual({ fieldRef: { fieldPath: 'metadata.namespace' } });
        const member = (env.MONGO_RS_HOST.value as string)
          .replace('$(POD_NAME)', `${sts.metadata.name}-0`)
          .replace('$(POD_NAMESPACE)', sts.metadata.namespace);
        expect(member).toBe(`mongo-0.${service.metadata.name}.nfl-shop.svc.cluster.local:27017`);
        // the init: postStart waits for mongod, then one mongosh script, with $MONGO_RS_HOST from the environment
        const [shell, flag, script] = c.lifecycle.postStart.exec.command as string[];
        expect([shell, flag]).toEqual(['sh', '-c']);
        const evals = [...script.matchAll(/mongosh --quiet --eval "([^"]+)"/g)].map((m) => m[1]);
        expect(evals).toHaveLength(1);
        expectInitiatesOnce(evals[0].replaceAll('$MONGO_RS_HOST', member), member);
        const probe = c.readinessProbe.exec.command as string[];
        expect(probe.slice(0, 3)).toEqual(['mongosh', '--quiet', '--eval']);
        expectReadyOnlyAsPrimary(probe[3]);
      });

      it('generates shop-secrets (dev-only values) with every key a workload reads, pointing at the StatefulSets', () => {
        const secret = rendered.find((d) => d.kind === 'Secret' && d.metadata.name === 'shop-secrets');
        expect(secret.metadata.namespace).toBe('nfl-shop');
        const data = Object.fromEntries(
          Object.entries(secret.data as Record<string, string>).map(([k, v]) => [
            k,
            Buffer.from(v, 'base64').toString(),
          ]),
        );
        const needed = rendered
          .flatMap(containersOf)
          .flatMap((c) => c.env ?? [])
          .map((e: K8s) => e.valueFrom?.secretKeyRef)
          .filter((ref: K8s) => ref && ref.name === 'shop-secrets' && !ref.optional)
          .map((ref: K8s) => ref.key);
        for (const key of new Set(needed)) expect({ key, present: key in data }).toEqual({ key, present: true });
        for (const s of services)
          expect(data[`MONGO_URI_${s.toUpperCase()}`]).toBe(
            `mongodb://mongo-0.mongo:27017/shop_${s}?replicaSet=${REPLICA_SET}`,
          );
        expect(data.REDIS_URL).toBe('redis://redis:6379');
        expect(data.RABBITMQ_URL).toBe(
          `amqp://${data.RABBITMQ_DEFAULT_USER}:${data.RABBITMQ_DEFAULT_PASS}@rabbitmq:5672`,
        );
        expect(read('k8s/overlays/dev/dev-secrets.env')).toMatch(/DEV ONLY/);
      });

      it.each(services)('lets %s reach MongoDB, Redis and RabbitMQ in the cluster (egress and their ingress)', (s) => {
        const policies = rendered.filter((d) => d.kind === 'NetworkPolicy');
        const labels = rendered.find((d) => d.kind === 'Deployment' && d.metadata.name === s).spec.template.metadata
          .labels;
        const ports = (rules: K8s[]) => rules.flatMap((r) => (r.ports ?? []).map((p: K8s) => p.port));
        const egress = policies
          .filter((p) => p.spec.policyTypes.includes('Egress') && selects(p, labels))
          .flatMap((p) => p.spec.egress ?? []);
        for (const [name, port] of Object.entries(INFRA)) {
          const podLabels = rendered.find((d) => d.kind === 'StatefulSet' && d.metadata.name === name).spec.template
            .metadata.labels;
          expect({ name, egress: ports(egress) }).toEqual({ name, egress: expect.arrayContaining([port]) });
          const ingress = policies
            .filter((p) => p.spec.policyTypes.includes('Ingress') && selects(p, podLabels))
            .flatMap((p) => p.spec.ingress ?? [])
            .filter((r: K8s) => (r.from ?? []).some((f: K8s) => selects({ metadata: {}, spec: f }, labels)));
          expect({ name, ingress: ports(ingress) }).toEqual({ name, ingress: expect.arrayContaining([port]) });
        }
      });
    }
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
