import type { HttpAdapterHost } from '@nestjs/core';
import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';

/** A service's own hot path: answers the request itself, or hands it to `express` (Nest's whole pipeline). */
export type Lane = (req: IncomingMessage, res: ServerResponse, express: RequestListener) => void;

/**
 * Puts `lane` in front of Express on the Nest app's HTTP server, for the few requests whose Nest pipeline costs
 * more than their own work (catalog's public reads, cart's guest reads and adds). Call it from
 * onApplicationBootstrap, which runs before the server listens, while Express is its only request listener.
 */
export function inFrontOfExpress(adapterHost: HttpAdapterHost, lane: Lane): void {
  const server = adapterHost.httpAdapter.getHttpServer() as Server;
  const [express] = server.listeners('request') as RequestListener[];
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => lane(req, res, express));
}
