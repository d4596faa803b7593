import { topicMatches } from './topic-pattern';

describe('topicMatches (AMQP topic rules)', () => {
  it.each([
    ['orders.order.placed', 'orders.order.placed', true],
    ['orders.order.placed', 'orders.order.cancelled', false],
    ['orders.*.placed', 'orders.order.placed', true],
    ['orders.*', 'orders.order.placed', false],
    ['orders.#', 'orders.order.placed', true],
    ['orders.#', 'orders', true],
    ['#', 'identity.user.deleted', true],
    ['#.deleted', 'catalog.product.deleted', true],
    ['#.deleted', 'catalog.product.changed', false],
    ['catalog.#.changed', 'catalog.changed', true],
    ['*.product.*', 'catalog.product', false],
  ])('%s vs %s → %s', (pattern, key, expected) => {
    expect(topicMatches(pattern, key)).toBe(expected);
  });
});
