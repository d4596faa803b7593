import { Controller, Get, Injectable, Module, NotFoundException, Param, type OnModuleInit } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { getConnectionToken } from '@nestjs/mongoose';
import amqp from 'amqplib';
import type { Connection } from 'mongoose';
import { ServiceDefaultsModule } from '../bootstrap/service-defaults.module';
import { ServiceConfig } from '../config/service-config';
import { EventBus } from '../events/event-bus';
import { namespacedExchange } from '../rpc/rpc-names';
import { RpcClient } from '../rpc/rpc-client';
import { scrapeMetrics, startTestService, waitFor, type Exposition, type TestService } from '../testing';

const DEMO_CLIENT = Symbol('demo RpcClient');
let flakyRuns = 0;

@Controller('api/demo')
class DemoController {
  @Get(':id')
  one(@Param('id') id: string) {
    if (id === 'missing') throw new NotFoundException('Thing not found');
    return { id };
  }
}

@Controller()
class DemoMessages {
  @MessagePattern('catalog.demo.echo')
  echo(@Payload() payload: { value: string }) {
    return payload;
  }
}

@Injectable()
class DemoListener implements OnModuleInit {
  constructor(private readonly bus: EventBus) {}

  onModuleInit(): Promise<void> {
    return this.bus.subscribe({
      'demo.thing.happened': async () => undefined,
      'demo.thing.flaky': async () => {
        flakyRuns += 1;
        if (flakyRuns === 1) throw new Error('not this time');
      },
    });
  }
}

@Module({
  imports: [ServiceDefaultsModule.forRoot({ service: 'catalog', config: ServiceConfig })],
  controllers: [DemoController, DemoMessages],
  providers: [
    DemoListener,
    // Built by a factory, as the services build theirs: MetricsWiring must still find it.
    {
      provide: DEMO_CLIENT,
      inject: [ServiceConfig],
      useFactory: (config: ServiceConfig) =>
        new RpcClient('catalog', {
          url: config.RABBITMQ_URL,
          namespace: config.RABBITMQ_NAMESPACE,
          timeoutMs: 3000,
        }),
    },
  ],
})
class DemoModule {}

describe('a service’s GET /metrics', () => {
  let svc: TestService;
  const scrape = (): Promise<Exposition> => scrapeMetrics(`${svc.url}/metrics`);

  beforeAll(async () => {
    svc = await startTestService('catalog', DemoModule);
  });
  afterAll(async () => {
    await svc?.close();
  });

  it('serves the process and event-loop metrics in the text format, labelled with the service', async () => {
    const m = await scrape();
    for (const name of [
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
      'nodejs_eventloop_lag_p99_seconds',
      'nodejs_heap_size_used_bytes',
      'http_requests_total',
      'http_request_duration_seconds_bucket',
      'shop_events_published_total',
      'shop_events_consumed_total',
      'shop_events_retried_total',
      'shop_events_dead_lettered_total',
      'shop_rpc_client_requests_total',
      'shop_rpc_server_requests_total',
      'shop_outbox_relayed_total',
      'shop_mongo_commands_total',
      'shop_mongo_command_seconds_total',
    ])
      expect(m.names()).toContain(name);
    expect(m.samples.find((s) => s.name === 'process_resident_memory_bytes')?.labels.service).toBe('catalog');
  });

  it('counts HTTP requests by route template and status, never by raw path, and not the scrapes', async () => {
    const before = await scrape();
    for (const id of ['a1', 'b2', 'missing']) await fetch(`${svc.url}/api/demo/${id}`).then((r) => r.arrayBuffer());
    await fetch(`${svc.url}/no/such/path/${Date.now()}`).then((r) => r.arrayBuffer());
    const after = await scrape();
    const moved = (labels: Record<string, string>) =>
      after.sum('http_requests_total', labels) - before.sum('http_requests_total', labels);
    expect(moved({ method: 'GET', route: '/api/demo/:id', status: '200' })).toBe(2);
    expect(moved({ method: 'GET', route: '/api/demo/:id', status: '404' })).toBe(1);
    expect(moved({ method: 'GET', route: 'unmatched', status: '404' })).toBe(1);
    expect(
      after.sum('http_request_duration_seconds_count', { route: '/api/demo/:id' }) -
        before.sum('http_request_duration_seconds_count', { route: '/api/demo/:id' }),
    ).toBe(3);
    const routes = new Set(after.samples.filter((s) => s.name === 'http_requests_total').map((s) => s.labels.route));
    expect([...routes].filter((r) => /a1|b2|missing|no\/such/.test(r))).toEqual([]);
    expect(after.sum('http_requests_total', { route: '/metrics' })).toBe(0);
  });

  it('counts the MongoDB commands of the connection it opens, by collection and operation', async () => {
    const db = svc.app.get<Connection>(getConnectionToken()).db!;
    const before = await scrape();
    await db.collection('demo_things').insertOne({ name: 'one' });
    await db.collection('demo_things').findOne({ name: 'one' });
    const after = await scrape();
    const moved = (labels: Record<string, string>) =>
      after.sum('shop_mongo_commands_total', labels) - before.sum('shop_mongo_commands_total', labels);
    expect(moved({ collection: 'demo_things', op: 'insert' })).toBe(1);
    expect(moved({ collection: 'demo_things', op: 'find' })).toBe(1);
  });

  it('counts RabbitMQ requests on both sides, for a client a service built in its own factory', async () => {
    const before = await scrape();
    const client = svc.app.get<RpcClient>(DEMO_CLIENT);
    await expect(client.send('catalog.demo.echo', { value: 'x' })).resolves.toEqual({ value: 'x' });
    const after = await scrape();
    const labels = { pattern: 'catalog.demo.echo', outcome: 'ok' };
    expect(after.sum('shop_rpc_client_requests_total', labels)).toBe(
      before.sum('shop_rpc_client_requests_total', labels) + 1,
    );
    expect(after.sum('shop_rpc_server_requests_total', labels)).toBe(
      before.sum('shop_rpc_server_requests_total', labels) + 1,
    );
    expect(after.sum('shop_rpc_client_duration_seconds_count', { pattern: 'catalog.demo.echo' })).toBeGreaterThan(0);
  });

  it('counts events published, consumed, retried and dead-lettered, by queue', async () => {
    const bus = svc.app.get(EventBus);
    const queue = `${svc.namespace}catalog.events`;
    await bus.publish('demo.thing.happened', { n: 1 });
    await waitFor(
      'the event handled',
      async () => (await scrape()).sum('shop_events_consumed_total', { queue, outcome: 'handled' }) >= 1,
      5000,
    );
    await bus.publish('demo.thing.flaky', { n: 2 });
    await waitFor('the retry', async () => (await scrape()).sum('shop_events_retried_total', { queue }) >= 1, 5000);

    // A message no consumer can read goes straight to the dead-letter queue.
    const connection = await amqp.connect(svc.config.RABBITMQ_URL);
    const channel = await connection.createConfirmChannel();
    channel.publish(namespacedExchange(svc.namespace), 'demo.thing.happened', Buffer.from('not json'));
    await channel.waitForConfirms();
    await connection.close();
    await waitFor(
      'the dead letter',
      async () => (await scrape()).sum('shop_events_dead_lettered_total', { queue, reason: 'invalid_message' }) >= 1,
      5000,
    );

    const m = await scrape();
    expect(m.sum('shop_events_published_total', { event: 'demo.thing.happened', outcome: 'ok' })).toBe(1);
    expect(m.sum('shop_events_published_total', { event: 'demo.thing.flaky', outcome: 'ok' })).toBe(1);
    expect(m.sum('shop_events_consumed_total', { queue, event: 'demo.thing.flaky', outcome: 'failed' })).toBe(1);
    expect(m.sum('shop_event_handler_duration_seconds_count', { queue })).toBeGreaterThanOrEqual(2);
  });
});
