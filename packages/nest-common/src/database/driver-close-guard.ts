/** The part of the driver's internal `Connection` this guard touches. */
interface DriverConnection {
  closed: boolean;
  error?: Error;
  id: number | string;
  address: string;
  writeCommand(...args: unknown[]): Promise<void>;
  once(event: 'close', listener: () => void): unknown;
  off(event: 'close', listener: () => void): unknown;
}

const GUARDED = Symbol.for('shop.mongodb.writeCommandCloseGuard');

/**
 * Works around a MongoDB driver (6.x) hang that left a service at 503 until restarted once MongoDB came back.
 *
 * The driver writes a command after an `await` (serialising it), without looking again whether its socket closed
 * meanwhile. When MongoDB goes away, every socket closes at once; an operation failing on one of them asks the server
 * monitor for an immediate check, which starts on the monitor's own connection before that connection has heard its
 * socket close. The write then lands on a destroyed socket: `socket.write` answers false, the driver waits for a
 * `drain` that never comes, and a destroyed socket never times out either. The check never ends, the monitor never
 * checks again, the server stays Unknown: every query fails server selection for good (seen in about half the runs of
 * services/orders/test/faults.spec.ts, "MongoDB refused"). An application operation can hang the same way.
 *
 * The guard makes a command's write give up with the connection's own network error as soon as the connection
 * closes, so the check (or operation) fails like any other network error and the driver carries on: the monitor
 * checks again, and reconnects when the server answers.
 */
export function installDriverCloseGuard(): void {
  // The driver mongoose depends on (hoisted beside it): the copy whose connections the services open.
  let proto: (DriverConnection & { [GUARDED]?: true }) | undefined;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the driver's internals have no import path or types
    proto = (require('mongodb/lib/cmap/connection') as { Connection?: { prototype: typeof proto } }).Connection
      ?.prototype;
  } catch {
    return; // another driver layout: nothing to guard
  }
  if (!proto || typeof proto.writeCommand !== 'function' || proto[GUARDED]) return;
  const write = proto.writeCommand;
  proto.writeCommand = function guardedWriteCommand(this: DriverConnection, ...args: unknown[]): Promise<void> {
    const closedError = () => this.error ?? new Error(`connection ${this.id} to ${this.address} closed`);
    if (this.closed) return Promise.reject(closedError());
    return new Promise<void>((resolve, reject) => {
      const onClose = () => reject(closedError());
      this.once('close', onClose);
      write.apply(this, args).then(
        () => {
          this.off('close', onClose);
          resolve();
        },
        (err: unknown) => {
          this.off('close', onClose);
          reject(err instanceof Error ? err : new Error(String(err)));
        },
      );
    });
  };
  proto[GUARDED] = true;
}
