import { mongo } from 'mongoose';
import { indexesBuilt, type IndexedModel } from './indexes-built';

/** A model whose index requests time out `timeouts` times, then succeed; it records what was asked. */
function model(timeouts: number, failure?: Error): IndexedModel & { asked: string[] } {
  const asked: string[] = [];
  const answer = (what: string) => {
    asked.push(what);
    if (failure) return Promise.reject(failure);
    if (asked.length <= timeouts) return Promise.reject(new mongo.MongoNetworkTimeoutError('connection 2 timed out'));
    return Promise.resolve();
  };
  return { modelName: 'Order', asked, init: () => answer('init'), ensureIndexes: () => answer('ensureIndexes') };
}

describe('indexesBuilt', () => {
  it('resolves at once when the indexes are there', async () => {
    const m = model(0);
    await indexesBuilt([m]);
    expect(m.asked).toEqual(['init']);
  });

  it('asks again while the server is still building (each request timing out), until the indexes are there', async () => {
    const slow = model(2);
    const quick = model(0);
    await indexesBuilt([slow, quick]);
    expect(slow.asked).toEqual(['init', 'ensureIndexes', 'ensureIndexes']);
    expect(quick.asked).toEqual(['init', 'ensureIndexes', 'ensureIndexes']);
  });

  it('throws any other failure at once', async () => {
    const refused = new Error('E11000 duplicate key error');
    const m = model(0, refused);
    await expect(indexesBuilt([m])).rejects.toBe(refused);
    expect(m.asked).toEqual(['init']);
  });

  it('throws the time-out once the wait is over', async () => {
    const m = model(Infinity);
    await expect(indexesBuilt([m], 0)).rejects.toBeInstanceOf(mongo.MongoNetworkTimeoutError);
    expect(m.asked).toEqual(['init']);
  });
});
