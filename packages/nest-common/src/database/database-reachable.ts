import { ServiceUnavailableException } from '@nestjs/common';
import { ConnectionStates, type Connection } from 'mongoose';
import { DEPENDENCY_UNAVAILABLE } from '../errors/error-body';

/**
 * Fails with the shop's 503 when the MongoDB driver already knows the database is unreachable: mongoose marks the
 * connection disconnected as soon as the driver's monitor loses the server (or a replica set its primary), and
 * connected again once it is back. Cheaper than finding out by waiting for a server selection timeout.
 */
export function assertDatabaseReachable(connection: Connection): void {
  if (connection.readyState !== ConnectionStates.connected) {
    throw new ServiceUnavailableException(DEPENDENCY_UNAVAILABLE);
  }
}
