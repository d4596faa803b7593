/**
 * No Docker engine or cluster runs on the development machines, so the deployment files are
 * validated statically: they parse, reference what exists, and carry the operational settings
 * (health checks, probes, limits, non-root, read-only root filesystem) the architecture requires.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
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

type ComposeService = {
  image?: string;
  build?: { args?: { APP?: string } };
  command?: string[];
  healthcheck?: unknown;
  restart?: string;
  depends_on?: Record<string, { condition: string }>;
  environment?: Record<string, string>;
  read_only?: boolean;
};

describe('docker-compose.yml', () => {
  const compose = parse(read('docker-compose.yml'), { merge: true }) as {
    services: Record<string, ComposeService>;
    volumes: Record<string, unknown>;
  };
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

  it('runs seed programs that exist in the source', () => {
    for (const svc of Object.values(compose.services)) {
      const script = svc.command?.find((c) => c.endsWith('.js'));
      if (!script) continue;
      expect(existsSync(join(root, script.replace('/dist/', '/src/').replace(/\.js$/, '.ts')))).toBe(true);
    }
  });

  it('points the gateway at every service by its compose name', () => {
    const env = compose.services.gateway.environment ?? {};
    for (const s of services) expect(env[`${s.toUpperCase()}_URL`]).toMatch(new RegExp(`^http://${s}:\\d+$`));
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

describe('k8s (kustomize)', () => {
  const base = parse(read('k8s/base/kustomization.yaml')) as { resources: string[] };
  const docs = base.resources.flatMap((file) => {
    expect(existsSync(join(root, 'k8s/base', file))).toBe(true);
    return parseAllDocuments(read(`k8s/base/${file}`)).map((d) => d.toJS());
  });
  const deployments = docs.filter((d) => d.kind === 'Deployment');

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

  it('takes secrets by reference only', () => {
    expect(docs.some((x) => x.kind === 'Secret')).toBe(false);
    for (const d of deployments) {
      for (const c of d.spec.template.spec.containers) {
        for (const e of c.env ?? [])
          if (/SECRET|URI|URL/.test(e.name) && e.name !== 'PORT' && e.value) expect(e.value).not.toMatch(/:\/\/.*@/);
      }
    }
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
});
