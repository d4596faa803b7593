import { BadRequestException, NotFoundException, ServiceUnavailableException } from '@nestjs/common';
import { RpcException } from '@nestjs/microservices';
import { DEPENDENCY_UNAVAILABLE, toApiError } from './error-body';

describe('toApiError', () => {
  it('keeps a string message and the status of an HttpException', () => {
    expect(toApiError(new NotFoundException('Product not found'))).toEqual({
      statusCode: 404,
      message: 'Product not found',
    });
  });

  it('never returns an array message', () => {
    const err = new BadRequestException(['name should not be empty', 'email must be an email']);
    expect(toApiError(err)).toEqual({ statusCode: 400, message: 'name should not be empty' });
  });

  it('keeps field details', () => {
    const details = [{ field: 'email', message: 'email must be an email' }];
    expect(toApiError(new BadRequestException({ message: 'email must be an email', details }))).toEqual({
      statusCode: 400,
      message: 'email must be an email',
      details,
    });
  });

  it('restores an error that crossed RabbitMQ', () => {
    expect(toApiError({ statusCode: 409, message: 'Only 1 left in stock' })).toEqual({
      statusCode: 409,
      message: 'Only 1 left in stock',
    });
    expect(toApiError(new RpcException({ statusCode: 404, message: 'Product not found' }))).toEqual({
      statusCode: 404,
      message: 'Product not found',
    });
    expect(toApiError(new RpcException('no status')).statusCode).toBe(500);
    expect(toApiError(new ServiceUnavailableException('Catalog service is unavailable')).statusCode).toBe(503);
  });

  it('answers 503 for every MongoDB driver error of a server away or hung, whatever its name', () => {
    const named = (name: string) => Object.assign(new Error('driver detail'), { name });
    for (const name of [
      'MongoServerSelectionError',
      'MongoNetworkError',
      'MongoNetworkTimeoutError',
      'MongoPoolClearedError',
      // An operation in flight when the monitor's heartbeat timed out first: no `Mongo` prefix.
      'PoolClearedOnNetworkError',
      'MongoPoolClosedError',
      'MongoWaitQueueTimeoutError',
      'MongoServerClosedError',
      'MongoTopologyClosedError',
      'MongoNotConnectedError',
      'MongooseServerSelectionError',
    ]) {
      expect({ name, ...toApiError(named(name)) }).toEqual({ name, statusCode: 503, message: DEPENDENCY_UNAVAILABLE });
    }
    expect(toApiError(named('MongoServerError')).statusCode).toBe(500);
  });

  it('hides unknown errors behind a generic 500', () => {
    expect(toApiError(new Error('secret stack detail'))).toEqual({ statusCode: 500, message: 'Internal server error' });
  });
});
