// The 60-second chaos run (scripts/bench/chaos.mjs --lite): the shop with two replicas of every service, on ports,
// data, Redis db and RabbitMQ vhost of its own, 20 buyers purchasing while replicas are killed, the broker's
// connections dropped, the database stalled, the SMTP server stopped and the gateway killed; then the purchase audit
// (docs/architecture.md, "The purchase audit"). Passes when the audit finds nothing.
import { spawn } from 'node:child_process';
import * as path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');

describe('chaos: two replicas of everything, faults injected, the purchase audit', () => {
  it('passes the audit after 60 s of purchases under faults', async () => {
    const child = spawn(process.execPath, [path.join(ROOT, 'scripts/bench/chaos.mjs'), '--lite'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    const verdict = output.trim().split('\n').at(-1) ?? '';
    if (code !== 0 || !verdict.startsWith('chaos: PASS'))
      throw new Error(`chaos run failed (exit ${code}):\n${output}`);
    expect(verdict).toMatch(/^chaos: PASS — 0 audit violations/);
  }, 600_000);
});
