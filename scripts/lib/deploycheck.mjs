// The deployment files' checker (tools/deploycheck, Go): renders kustomizations with the kustomize library and
// decodes every object strictly against the Kubernetes API types; loads compose files with compose-go (the
// Compose specification's JSON schema, interpolation). Built into .tools/bin/deploycheck when missing or older
// than its sources (about 4 minutes from a cold Go cache on 2 cores, then nothing), like the embedded FerretDB.
//
//   node scripts/lib/deploycheck.mjs kustomize DIR... | compose FILE...
//       builds when stale (progress on stderr), then runs the checker, which prints JSON (tools/deploycheck/main.go)
//
// scripts/checks/deploy-config.spec.ts runs it that way, so `npx jest scripts/checks` works on a fresh clone.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROOT, mtimeMs, which } from './util.mjs';

const SRC = path.join(ROOT, 'tools/deploycheck');
export const DEPLOYCHECK_BIN = path.join(ROOT, '.tools/bin/deploycheck');

/** True when .tools/bin/deploycheck is missing or older than tools/deploycheck/{main.go,go.mod,go.sum}. */
export function deploycheckNeedsBuild() {
  const built = mtimeMs(DEPLOYCHECK_BIN);
  if (!built) return true;
  return ['main.go', 'go.mod', 'go.sum'].some((f) => mtimeMs(path.join(SRC, f)) > built);
}

/** Builds the checker when stale (synchronously: the jest spec calls this before it collects its tests). */
export function buildDeployCheck({ force = false } = {}) {
  if (!force && !deploycheckNeedsBuild()) return false;
  const go = which('go', ['/usr/local/go/bin']);
  if (!go) {
    throw new Error(
      'tools/deploycheck must be built, but the Go toolchain (`go`) is not installed or not on PATH (looked in PATH and /usr/local/go/bin).',
    );
  }
  process.stderr.write(
    `[shop] building the deployment files' checker (tools/deploycheck -> .tools/bin/deploycheck): a few minutes from a cold Go cache ...\n`,
  );
  fs.mkdirSync(path.dirname(DEPLOYCHECK_BIN), { recursive: true });
  // A temporary name per process: an interrupted or concurrent build never leaves a "fresh" broken binary behind.
  const tmp = `${DEPLOYCHECK_BIN}.${process.pid}.tmp`;
  const built = spawnSync(go, ['build', '-trimpath', '-o', tmp, '.'], {
    cwd: SRC,
    stdio: ['ignore', 'inherit', 'pipe'],
  });
  if (built.status !== 0) {
    fs.rmSync(tmp, { force: true });
    throw new Error(`go build (tools/deploycheck) failed:\n${built.stderr?.toString() ?? built.error}`);
  }
  fs.renameSync(tmp, DEPLOYCHECK_BIN);
  return true;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    buildDeployCheck();
  } catch (err) {
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  }
  const checked = spawnSync(DEPLOYCHECK_BIN, process.argv.slice(2), { cwd: process.cwd(), stdio: 'inherit' });
  process.exit(checked.status ?? 1);
}
