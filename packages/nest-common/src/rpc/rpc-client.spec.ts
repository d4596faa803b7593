import { Controller, Module, NotFoundException } from '@nestjs/common';
import { MessagePattern, Payload, RpcException } from '@nestjs/microservices';
import { ServiceDefaultsModule } from '../bootstrap/service-defaults.module';
import { currentRequestId, runWithRequestContext } from '../logging/request-context';
import { ServiceConfig } from '../config/service-config';
import { startTestService, type TestService } from '../testing';
import amqp from 'amqplib';

async function deleteQueue(url: string, queue: string) {
  const connection = await amqp.connect(url);
  const channel = await connection.createChannel();
  await channel.deleteQueue(queue);
  await connection.close();
}
import { RpcClient } from './rpc-client';

@Controller()
class DemoMessages {
  @MessagePattern('demo.things.echo')
  echo(@Payload() payload: { value: string }) {
    return { value: payload.value, requestId: currentRequestId() };
  }

  @MessagePattern('demo.things.missing')
  missing() {
    throw new NotFoundException('Thing not found');
  }

  @MessagePattern('demo.things.conflict')
  conflict() {
    throw new RpcException({ statusCode: 409, message: 'Only 1 left in stock' });
  }

  @MessagePattern('demo.things.crash')
  crash() {
    throw new Error('database exploded');
  }
}

@Module({
  imports: [ServiceDefaultsModule.forRoot({ service: 'catalog', config: ServiceConfig })],
  controllers: [DemoMessages],
})
class DemoModule {}

describe('RpcClient against a real service over RabbitMQ', () => {
  let svc: TestService;
  let client: RpcClient;

  beforeAll(async () => {
    svc = await startTestService('catalog', DemoModule);
    client = new RpcClient('catalog', { url: svc.config.RABBITMQ_URL, namespace: svc.namespace, timeoutMs: 3000 });
  });
  afterAll(async () => {
    await client.onApplicationShutdown();
    await svc.close();
  });

  it('gets the answer, and the handler runs under the caller’s request id', async () => {
    const answer = await runWithRequestContext({ requestId: 'rpc-req-7' }, () =>
      client.send('demo.things.echo', { value: 'hello' }),
    );
    expect(answer).toEqual({ value: 'hello', requestId: 'rpc-req-7' });
  });

  it('turns the receiver’s errors back into the same HTTP status and message', async () => {
    await expect(client.send('demo.things.missing', {})).rejects.toMatchObject({
      status: 404,
      message: 'Thing not found',
    });
    await expect(client.send('demo.things.conflict', {})).rejects.toMatchObject({
      status: 409,
      message: 'Only 1 left in stock',
    });
    await expect(client.send('demo.things.crash', {})).rejects.toMatchObject({ status: 500 });
  });

  it('keeps answering after errors (every message was acked)', async () => {
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => client.send<{ value: string }>('demo.things.echo', { value: String(i) })),
    );
    expect(answers.map((a) => a.value)).toEqual(Array.from({ length: 40 }, (_, i) => String(i)));
  });

  it('answers 503 with a message when nobody consumes the queue, instead of hanging', async () => {
    const nobody = new RpcClient('orders', {
      url: svc.config.RABBITMQ_URL,
      namespace: `${svc.namespace}void.`,
      timeoutMs: 300,
    });
    try {
      const started = Date.now();
      await expect(nobody.send('orders.things.find', {})).rejects.toMatchObject({
        status: 503,
        message: 'Orders service is unavailable',
      });
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      await nobody.onApplicationShutdown();
      await deleteQueue(svc.config.RABBITMQ_URL, `${svc.namespace}void.orders_queue`);
    }
  });

  it('answers 503 when the broker cannot be reached', async () => {
    const offline = new RpcClient('catalog', { url: 'amqp://guest:guest@127.0.0.1:1', timeoutMs: 500 });
    try {
      await expect(offline.send('demo.things.echo', { value: 'x' })).rejects.toMatchObject({ status: 503 });
    } finally {
      await offline.onApplicationShutdown().catch(() => undefined);
    }
  });
});
