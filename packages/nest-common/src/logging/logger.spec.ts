import { Logger } from '@nestjs/common';
import { Writable } from 'node:stream';
import { createLogger, PinoNestLogger } from './logger';
import { runWithRequestContext } from './request-context';

function capture() {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(
        ...chunk
          .toString()
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l)),
      );
      done();
    },
  });
  return { lines, logger: createLogger('demo', 'debug', sink) };
}

describe('logging', () => {
  it('writes JSON lines with the service and the current request id', () => {
    const { lines, logger } = capture();
    runWithRequestContext({ requestId: 'req-1' }, () => logger.info({ orderId: 'o1' }, 'order placed'));
    logger.info('outside any request');
    expect(lines[0]).toEqual(
      expect.objectContaining({
        service: 'demo',
        requestId: 'req-1',
        orderId: 'o1',
        msg: 'order placed',
        level: 'info',
      }),
    );
    expect(lines[1].requestId).toBeUndefined();
  });

  it('keeps the fields of object messages from Nest loggers instead of printing [object Object]', () => {
    const { lines, logger } = capture();
    const nest = new PinoNestLogger(logger);
    nest.log({ msg: 'reservation expired', checkoutId: 'c1' }, 'Stock');
    nest.warn('plain text', 'Stock');
    nest.error(new Error('boom'), 'stack here', 'Stock');
    expect(lines[0]).toEqual(
      expect.objectContaining({ msg: 'reservation expired', checkoutId: 'c1', context: 'Stock' }),
    );
    expect(lines[1]).toEqual(expect.objectContaining({ msg: 'plain text', level: 'warn' }));
    expect(lines[2]).toEqual(expect.objectContaining({ msg: 'boom', trace: 'stack here', level: 'error' }));
    expect(JSON.stringify(lines)).not.toContain('[object Object]');
  });

  it("reads a Nest Logger's (fields, text) call as pino's, keeping the logger's context", () => {
    const { lines, logger } = capture();
    const nest = new Logger('Stock');
    Logger.overrideLogger(new PinoNestLogger(logger));
    nest.log({ checkoutId: 'c1' }, 'reservation expired');
    nest.error({ err: 'timeout' }, 'release failed');
    nest.warn('plain text');
    Logger.overrideLogger(true);
    expect(lines[0]).toEqual(
      expect.objectContaining({ msg: 'reservation expired', checkoutId: 'c1', context: 'Stock', level: 'info' }),
    );
    expect(lines[1]).toEqual(expect.objectContaining({ msg: 'release failed', err: 'timeout', context: 'Stock' }));
    expect(lines[1]).not.toHaveProperty('trace');
    expect(lines[2]).toEqual(expect.objectContaining({ msg: 'plain text', context: 'Stock', level: 'warn' }));
  });

  it('keeps Nest start-up chatter at debug', () => {
    const { lines, logger } = capture();
    const nest = new PinoNestLogger(logger);
    nest.log('Mapped {/api/users/login, POST} route', 'RouterExplorer');
    nest.log('Nest application successfully started', 'NestApplication');
    expect(lines.map((l) => l.level)).toEqual(['debug', 'info']);
  });
});
