import { Logger } from '@nestjs/common';
import { ClientRMQ, ServerRMQ } from '@nestjs/microservices';
import type { AmqpConnectionManager, ChannelWrapper } from 'amqp-connection-manager';
import type { Channel } from 'amqplib';

const logger = new Logger('RabbitMQ');

/**
 * Nest's RMQ transports create their channel without an 'error' listener. When the broker connection goes away
 * while a channel is being opened or set up (asserting its queue after a reconnect, or a SIGTERM closing the
 * connection while the service is still starting), amqp-connection-manager emits 'error' on it — "Channel ended,
 * no reply will be forthcoming" — and an EventEmitter error nobody listens to ends the process. Listening is all it
 * takes: the manager sets the channel up again on the next reconnect. The listener is attached as the channel is
 * created, before it can fail: opening the channel itself can fail, before any setup function runs.
 */
export function listenForChannelErrors(connection: AmqpConnectionManager, role: string): AmqpConnectionManager {
  const createChannel = connection.createChannel.bind(connection);
  connection.createChannel = (...args: Parameters<AmqpConnectionManager['createChannel']>): ChannelWrapper => {
    const wrapper = createChannel(...args);
    wrapper.on('error', (err: Error) =>
      logger.warn(`${role} channel could not be set up (${err.message}); it is set up again on the next reconnect`),
    );
    observeSends(wrapper, role);
    return wrapper;
  };
  return connection;
}

/**
 * Nest's request server sends each reply with `sendToQueue` and never looks at the promise it returns, which
 * rejects ("channel closed") when the broker goes away before confirming the reply: an unhandled rejection, which
 * ends a Node process. Seen when RabbitMQ went away just after catalog answered a stock reservation. The caller
 * still gets the same promise (a client that waits on it hears the rejection); a reply lost this way leaves its
 * caller to time out and retry, as for any broker outage.
 */
function observeSends(wrapper: ChannelWrapper, role: string): void {
  const sendToQueue = wrapper.sendToQueue.bind(wrapper);
  wrapper.sendToQueue = (...args: Parameters<ChannelWrapper['sendToQueue']>) => {
    const sent = sendToQueue(...args);
    sent.catch((err: Error) => logger.warn(`${role}: a message was not confirmed by the broker (${err.message})`));
    return sent;
  };
}

/**
 * Nest's request server starts consuming at the end of its channel setup without awaiting `consume` (an RPC to the
 * broker): when the connection ends before the broker's consume-ok, that promise rejects ("Channel ended, no reply
 * will be forthcoming") with nobody listening — an unhandled rejection, which ends a Node process. Seen once in a
 * clean-clone `npm test` (identity's RabbitMQ fault suite). Nothing is lost with it: the channel went with the
 * connection, and the manager sets it up again, consuming anew, on the next reconnect.
 */
function observeConsume(channel: Channel, role: string): Channel {
  const consume = channel.consume.bind(channel);
  channel.consume = (...args: Parameters<Channel['consume']>) => {
    const started = consume(...args);
    started.catch((err: Error) =>
      logger.warn(`${role}: consuming did not start (${err.message}); it starts again on the next reconnect`),
    );
    return started;
  };
  return channel;
}

/** The request queue's consumer, which survives a broker that goes away while its channel opens. */
export class ResilientServerRMQ extends ServerRMQ {
  override createClient<T = AmqpConnectionManager>(): T {
    return listenForChannelErrors(super.createClient<AmqpConnectionManager>(), 'request queue') as T;
  }

  override setupChannel(channel: Channel, callback: () => void): Promise<void> {
    return super.setupChannel(observeConsume(channel, 'request queue'), callback);
  }
}

/** A request client, which survives a broker that goes away while its channel opens. */
export class ResilientClientRMQ extends ClientRMQ {
  override createClient(): AmqpConnectionManager {
    return listenForChannelErrors(super.createClient(), 'request client');
  }
}
