// Runs the real CLI (src/main.ts, compiled on the fly by @swc/core, which the jest transform already uses) as a
// child process: the production refusal, the start line, and a clean stop on SIGTERM.
import { spawn } from 'node:child_process';
import path from 'node:path';

const MAIN = path.join(__dirname, 'main.ts');
const REGISTER = `
const fs = require('node:fs');
const swc = require(${JSON.stringify(require.resolve('@swc/core'))});
require.extensions['.ts'] = (module, filename) => {
  const { code } = swc.transformSync(fs.readFileSync(filename, 'utf8'), {
    filename,
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
    module: { type: 'commonjs' },
  });
  module._compile(code, filename);
};
require(${JSON.stringify(MAIN)});
`;

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function runMain(env: Record<string, string>, onStdout?: (text: string, kill: () => void) => void): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', REGISTER], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      onStdout?.(stdout, () => child.kill('SIGTERM'));
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

describe('main (the CLI)', () => {
  it('refuses to start with NODE_ENV=production: exit code 1 and a clear message', async () => {
    const run = await runMain({ NODE_ENV: 'production', FAKE_PAYPAL_PORT: '0' });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('fake PayPal refuses to start with NODE_ENV=production');
    expect(run.stdout).not.toContain('listening');
  });

  it('exits 1 on a bad FAKE_PAYPAL_PORT', async () => {
    const run = await runMain({ FAKE_PAYPAL_PORT: 'eighty' });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('FAKE_PAYPAL_PORT must be a whole number');
  });

  it('prints where it listens, serves with the configured credentials, and stops cleanly on SIGTERM', async () => {
    let tokenStatus = 0;
    const run = await runMain(
      {
        NODE_ENV: 'development',
        FAKE_PAYPAL_PORT: '0',
        PAYPAL_CLIENT_ID: 'cli-id',
        PAYPAL_CLIENT_SECRET: 'cli-secret',
      },
      (text, kill) => {
        const match = /fake PayPal listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(text);
        if (!match || tokenStatus) return;
        tokenStatus = -1;
        fetch(`${match[1]}/v1/oauth2/token`, {
          method: 'POST',
          headers: {
            Authorization: `Basic ${Buffer.from('cli-id:cli-secret').toString('base64')}`,
            'Content-Type': 'application/x-www-form-urlencoded',
          },
          body: 'grant_type=client_credentials',
        })
          .then((res) => (tokenStatus = res.status))
          .finally(kill);
      },
    );
    expect(run.stdout).toMatch(/^fake PayPal listening on http:\/\/127\.0\.0\.1:\d+\n$/);
    expect(tokenStatus).toBe(200);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
  });
});
