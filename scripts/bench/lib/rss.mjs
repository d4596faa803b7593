// The processes of a running stack and their resident memory (footprint.mjs and soak.mjs read them here): by
// the pid files in .data/run/<scope>-<name>.pid that scripts/lib/procs.mjs writes, each checked to still run the
// program it names (its marker) so a reused pid is never read.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const RUN_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..', '.data', 'run');

/** name → pid of every live process of `scope` (seeds, which run once, left out). */
export function stackProcesses(scope) {
  const found = new Map();
  const prefix = `${scope}-`;
  for (const file of fs.existsSync(RUN_DIR) ? fs.readdirSync(RUN_DIR) : []) {
    if (!file.startsWith(prefix) || !file.endsWith('.pid')) continue;
    const name = file.slice(prefix.length, -'.pid'.length);
    if (name.startsWith('seed-')) continue;
    let pid;
    let marker;
    try {
      ({ pid, marker } = JSON.parse(fs.readFileSync(path.join(RUN_DIR, file), 'utf8')));
    } catch {
      continue; // being written or removed
    }
    let cmdline;
    try {
      cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
    } catch {
      continue; // not running
    }
    if (!marker || cmdline.includes(marker)) found.set(name, pid);
  }
  return found;
}

/** VmRSS of `pid` in KiB, or NaN when it is gone. */
export function rssKiB(pid) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? NaN);
  } catch {
    return NaN;
  }
}
