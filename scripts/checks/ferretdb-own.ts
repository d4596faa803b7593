/**
 * A FerretDB of a check's own: .tools/bin/ferretdb-dev (as `npm run build` makes it) on a data directory of the
 * check's, on TEST_FERRET_PORT or a free port, for checks that stop, kill or load the server (ferretdb-*.spec.ts).
 * TEST_FERRET_BINARY runs another build instead (an older binary, to measure what a patch changed).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { join } from 'node:path';
import { portOutsideEphemeralRange } from '@shop/nest-common/testing';

const BINARY = process.env.TEST_FERRET_BINARY || join(__dirname, '../../.tools/bin/ferretdb-dev');

/**
 * The MongoDB the tests were pointed at instead of the embedded FerretDB (`TEST_EXTERNAL_MONGO_URL=… npm test`,
 * docs/operations.md). The checks of our FerretDB build are skipped then (describeOurFerretDB); the atomicity check,
 * whose guarantees are MongoDB's own, runs against that server.
 */
export const EXTERNAL_MONGO_URL = process.env.TEST_EXTERNAL_MONGO_URL || undefined;

/**
 * `describe` for a check of our FerretDB build (its patches, its SQLite storage, its own binary); with an external
 * MongoDB, `describe.skip`, with the reason in the title and on the terminal.
 */
export function describeOurFerretDB(name: string, fn: () => void): void {
  if (!EXTERNAL_MONGO_URL) {
    describe(name, fn);
    return;
  }
  const reason =
    'skipped: TEST_EXTERNAL_MONGO_URL is set, and this checks our FerretDB build (tools/ferretdb), not the server given';
  process.stderr.write(`[shop] ${name}: ${reason}\n`);
  describe.skip(`${name} (${reason})`, fn);
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** TEST_FERRET_PORT, or a free port that stays free while the server is down between restarts. */
export async function freePort(): Promise<number> {
  return Number(process.env.TEST_FERRET_PORT) || portOutsideEphemeralRange();
}

const portOpen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const answer = (open: boolean) => {
      socket.destroy();
      resolve(open);
    };
    socket.once('connect', () => answer(true));
    socket.once('error', () => answer(false));
  });

/** A FerretDB of a check's own, on one data directory across restarts. */
export class OwnFerret {
  private child: ChildProcess | undefined;
  private output = '';

  constructor(
    readonly dataDir: string,
    readonly port: number,
  ) {}

  get url(): string {
    return `mongodb://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const child = spawn(BINARY, ['-listen', `127.0.0.1:${this.port}`, '-data', this.dataDir, '-log-level', 'warn'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    this.output = '';
    child.stdout?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    const deadline = Date.now() + 30_000;
    while (!(await portOpen(this.port))) {
      if (child.exitCode !== null || Date.now() > deadline) {
        throw new Error(`ferretdb-dev did not start on ${this.port}:\n${this.output}`);
      }
      await sleep(50);
    }
  }

  /** Stops it with the signal and waits until it has exited. */
  async stop(signal: NodeJS.Signals): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    await exited;
  }

  /** What the server logged (its warnings: adopted and re-created indexes are said there). */
  get log(): string {
    return this.output;
  }
}
