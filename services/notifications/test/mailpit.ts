// A real Mailpit for the suites: the one `npm test` runs (TEST_SMTP_URL, TEST_MAILPIT_URL), or one this suite starts
// from .tools/bin/mailpit (npm run build makes it) when run on its own. Read through Mailpit's API, by recipient,
// so suites running side by side never see each other's mail.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { portOutsideEphemeralRange, waitFor } from '@shop/nest-common/testing';

const MAILPIT_BIN = path.join(__dirname, '../../../.tools/bin/mailpit');

export interface Mailpit {
  smtpUrl: string;
  /** The web inbox and its API, e.g. http://127.0.0.1:8026 */
  url: string;
  smtpPort: number;
  stop(): Promise<void>;
}

export interface MailSummary {
  ID: string;
  MessageID: string;
  Subject: string;
  To: Array<{ Name: string; Address: string }>;
}

export interface Mail extends MailSummary {
  From: { Name: string; Address: string };
  Text: string;
  HTML: string;
}

const isOpen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

const apiAnswers = async (url: string) => {
  try {
    return (await fetch(`${url}/api/v1/info`, { signal: AbortSignal.timeout(1000) })).ok;
  } catch {
    return false;
  }
};

/** Starts a Mailpit of this suite's own (SMTP on `smtpPort` when given: e.g. a port a service was told to use). */
export async function startMailpit(smtpPort?: number): Promise<Mailpit> {
  const smtp = smtpPort ?? (await portOutsideEphemeralRange());
  const http = await portOutsideEphemeralRange();
  const url = `http://127.0.0.1:${http}`;
  const child: ChildProcess = spawn(
    MAILPIT_BIN,
    [
      ...['--smtp', `127.0.0.1:${smtp}`, '--listen', `127.0.0.1:${http}`],
      ...['--smtp-auth-accept-any', '--smtp-auth-allow-insecure', '--disable-version-check', '--smtp-disable-rdns'],
      '--quiet',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  // --quiet leaves only errors: kept to say why a Mailpit did not start (e.g. a port taken)
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
  let failed: Error | undefined;
  child.once(
    'error',
    (err) => (failed = new Error(`${MAILPIT_BIN} could not start (npm run build makes it): ${err.message}`)),
  );
  child.once('exit', (code) => (failed ??= new Error(`Mailpit on ${smtp}/${http} exited (${code}): ${stderr}`)));
  try {
    await waitFor(
      `Mailpit on ${smtp}/${http}`,
      async () => !!failed || ((await isOpen(smtp)) && (await apiAnswers(url))),
      15_000,
    );
    if (failed) throw failed;
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
  return {
    smtpUrl: `smtp://127.0.0.1:${smtp}`,
    url,
    smtpPort: smtp,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The Mailpit `npm test` runs, or one of the suite's own. */
export async function sharedMailpit(): Promise<Mailpit> {
  const { TEST_SMTP_URL, TEST_MAILPIT_URL } = process.env;
  if (TEST_SMTP_URL && TEST_MAILPIT_URL)
    return {
      smtpUrl: TEST_SMTP_URL,
      url: TEST_MAILPIT_URL,
      smtpPort: Number(new URL(TEST_SMTP_URL).port),
      stop: async () => undefined,
    };
  return startMailpit();
}

async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
  if (!res.ok) throw new Error(`GET ${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** Every message to `address` (newest first). */
export async function messagesTo(mailpit: Pick<Mailpit, 'url'>, address: string): Promise<MailSummary[]> {
  const query = encodeURIComponent(`to:"${address}"`);
  const found = await getJson<{ messages: MailSummary[] }>(`${mailpit.url}/api/v1/search?query=${query}&limit=50`);
  return found.messages;
}

export const readMessage = (mailpit: Pick<Mailpit, 'url'>, id: string) =>
  getJson<Mail>(`${mailpit.url}/api/v1/message/${encodeURIComponent(id)}`);

/** Waits for `count` messages to `address` (default 1), and reads the newest. */
export async function waitForMail(mailpit: Pick<Mailpit, 'url'>, address: string, timeoutMs = 15_000): Promise<Mail> {
  let found: MailSummary[] = [];
  await waitFor(
    `an email to ${address}`,
    async () => (found = await messagesTo(mailpit, address)).length > 0,
    timeoutMs,
  );
  return readMessage(mailpit, found[0].ID);
}
