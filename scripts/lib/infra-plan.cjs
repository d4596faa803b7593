// What `npm start` and `npm test` do about Redis and RabbitMQ (scripts/lib/infra.mjs runs it with the real probes):
//   listening                               -> nothing
//   on another host, not listening          -> stop: start it or fix REDIS_URL / RABBITMQ_URL
//   local, installed, not listening         -> start it
//   local, not installed, root              -> apt-get update (once), apt-get install -y <every missing package>,
//                                              then start it (unless the package's own install started it)
//   local, not installed, not root          -> stop with the exact command to run
// Every probe and action is passed in, so scripts/checks/infra-plan.spec.ts runs it without a real server or apt.
// CommonJS, not .mjs like its neighbours, because jest (that spec) cannot load an .mjs file.
'use strict';

const LOCAL_HOSTS = ['127.0.0.1', 'localhost', '::1'];

const isLocal = (host) => LOCAL_HOSTS.includes(host);

/** "a", "a and b", "a, b and c" */
const and = (words) => (words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`);

/**
 * The decision, from the probes' answers. `servers`: [{ name, pkg, envVar, host, port, up, installed }];
 * `root`: whether this process runs as root. Returns { install: [package], start: [name], problem: message | null };
 * with a problem nothing is to be done (no install when another server cannot be had anyway).
 */
function planInfra(servers, { root }) {
  const down = servers.filter((s) => !s.up);
  const remote = down.filter((s) => !isLocal(s.host));
  const absent = down.filter((s) => isLocal(s.host) && !s.installed);
  const problems = remote.map((s) => `${s.name} is not running on ${s.host}:${s.port}: start it or fix ${s.envVar}.`);
  if (absent.length && !root) {
    const packages = absent.map((s) => s.pkg).join(' ');
    problems.push(
      `${and(absent.map((s) => s.name))} ${absent.length > 1 ? 'are' : 'is'} not installed and this user is not root. ` +
        `Run \`sudo apt-get update && sudo apt-get install -y ${packages}\`, then retry ` +
        `(or set ${and(absent.map((s) => s.envVar))} to ${absent.length > 1 ? 'running servers' : `a running ${absent[0].name}`}).`,
    );
  }
  if (problems.length) return { install: [], start: [], problem: problems.join('\n') };
  return {
    install: absent.map((s) => s.pkg),
    start: down.map((s) => s.name),
    problem: null,
  };
}

/**
 * Probes, decides (planInfra) and acts. `servers`: [{ name, binary, pkg, envVar, host, port }]. `io`:
 *   portOpen(host, port) -> Promise<boolean>     installed(binary) -> its path, or null
 *   isRoot() -> boolean                          aptInstall(packages) -> Promise (apt-get update once, install)
 *   start(server, binaryPath) -> Promise         fail(message) -> the Error to throw
 * Resolves to one short outcome per server ("Redis is up on 127.0.0.1:6379", "RabbitMQ installed and started on …").
 */
async function ensureServers(servers, io) {
  const probed = [];
  for (const s of servers) {
    const up = await io.portOpen(s.host, s.port);
    probed.push({ ...s, up, installed: up || !isLocal(s.host) || Boolean(io.installed(s.binary)) });
  }
  const plan = planInfra(probed, { root: io.isRoot() });
  if (plan.problem) throw io.fail(plan.problem);
  if (plan.install.length) await io.aptInstall(plan.install);
  const outcomes = [];
  for (const s of probed) {
    const where = `${s.host}:${s.port}`;
    if (s.up) {
      outcomes.push(`${s.name} is up on ${where}`);
      continue;
    }
    const installedNow = plan.install.includes(s.pkg);
    const binary = io.installed(s.binary);
    if (!binary) throw io.fail(`apt-get installed ${s.pkg}, but ${s.binary} is still not found.`);
    // Debian's package may have started the server itself.
    if (installedNow && (await io.portOpen(s.host, s.port))) {
      outcomes.push(`${s.name} installed and running on ${where}`);
      continue;
    }
    await io.start(s, binary);
    outcomes.push(`${s.name} ${installedNow ? 'installed and started' : 'started'} on ${where}`);
  }
  return outcomes;
}

module.exports = { planInfra, ensureServers, isLocal };
