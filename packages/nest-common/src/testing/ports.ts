import { readFileSync } from 'node:fs';
import net from 'node:net';

/** Above the fixed ports our stacks use (e2e 13xxx–19xxx, the chaos run's 18xxx–24xxx, FerretDB's 27xxx). */
const LOWEST = 28_000;

/** Where the kernel starts handing out local ports to outgoing connections (Linux's default when unreadable). */
function ephemeralStart(): number {
  try {
    const [start] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/);
    return Number(start) || 32_768;
  } catch {
    return 32_768;
  }
}

const canListen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });

/**
 * A port of 127.0.0.1 nothing listens on, for a server a test starts later on a port it has already handed out (the
 * SMTP server a service was told to use, a database restarted in place). Chosen below the kernel's ephemeral range:
 * a port from `listen(0)` comes from that range, and while it stays closed any outgoing connection on the machine may
 * be given it as its local port, so that the server's listen fails with EADDRINUSE.
 */
export async function portOutsideEphemeralRange(): Promise<number> {
  const end = ephemeralStart();
  if (end <= LOWEST) throw new Error(`the ephemeral port range starts at ${end}: no room below it above ${LOWEST}`);
  for (let tries = 0; tries < 50; tries++) {
    const port = LOWEST + Math.floor(Math.random() * (end - LOWEST));
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port between ${LOWEST} and ${end} after 50 tries`);
}
