import { Logger } from '@nestjs/common';
import { ClientRMQ, ServerRMQ } from '@nestjs/microservices';
import type { ChannelWrapper } from 'amqp-connection-manager';
import type { Channel } from 'amqplib';

const logger = new Logger('RabbitMQ');

/**
 * Nest's RMQ transports create their channel without an 'error' listener. When the broker goes away while a
 * channel is being set up again (asserting its queue after a reconnect), amqp-connection-manager emits 'error'
 * on it — "Channel ended, no reply will be forthcoming" — and an EventEmitter error nobody listens to ends the
 * process. Listening is all it takes: the manager sets the channel up again on the next reconnect.
 */
function listenForSetupErrors(wrapper: ChannelWrapper | null, role: string): void {
  if (!wrapper || wrapper.listenerCount('error') > 0) return;
  wrapper.on('error', (err: Error) =>
    logger.warn(`${role} channel could not be set up (${err.message}); it is set up again on the next reconnect`),
  );
}

/** The request queue's consumer, which survives a broker that goes away mid-setup. */
export class ResilientServerRMQ extends ServerRMQ {
  override async setupChannel(channel: Channel, callback: (...args: unknown[]) => void): Promise<void> {
    listenForSetupErrors(this.channel, 'request queue');
    return super.setupChannel(channel, callback);
  }
}

/** A request client, which survives a broker that goes away mid-setup. */
export class ResilientClientRMQ extends ClientRMQ {
  override async setupChannel(channel: Channel, resolve: (...args: unknown[]) => void): Promise<void> {
    listenForSetupErrors(this.channel, 'request client');
    return super.setupChannel(channel, resolve);
  }
}
