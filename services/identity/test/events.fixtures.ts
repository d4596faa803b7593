import type { EventEnvelope } from '@shop/contracts';
import { EventBus, namespacedExchange } from '@shop/nest-common';
import { deleteConsumerTopology, type TestService } from '@shop/nest-common/testing';

/** Listens to the suite's exchange for the given event types, as a consumer service would. */
export async function listenTo(svc: TestService, types: string[]) {
  const received: EventEnvelope[] = [];
  const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
  const listener = new EventBus({
    url: svc.config.RABBITMQ_URL,
    service: 'listener',
    queuePrefix: svc.namespace,
    exchange: namespacedExchange(svc.namespace),
    logger: quiet,
  });
  await listener.start();
  await listener.subscribe(
    Object.fromEntries(types.map((type) => [type, async (e: EventEnvelope) => void received.push(e)])),
  );
  return {
    received,
    close: async () => {
      await listener.close();
      await deleteConsumerTopology(svc.config.RABBITMQ_URL, `${svc.namespace}listener.events`);
    },
  };
}
