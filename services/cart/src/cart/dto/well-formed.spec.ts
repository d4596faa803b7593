// The guest lane's shortcut past the ValidationPipe must never answer differently from it: every query and body
// here goes through both, and whatever the shortcut takes, the pipe and cartOwner() must take too, giving the same
// owner and line. What it declines goes to the pipe, so declining is always safe; the common requests must be taken.
import { createValidationPipe } from '@shop/nest-common';
import { parse as parseQuery } from 'node:querystring';
import { cartOwner } from '../cart-owner';
import { AddToCartDto, CartOwnerQuery } from './cart.dto';
import { wellFormedGuestAdd, wellFormedGuestRead } from './well-formed';

const pipe = createValidationPipe();

/** What the pipe and cartOwner() make of a body, or undefined when either refuses it. */
async function byThePipe(body: unknown) {
  try {
    const dto = (await pipe.transform(body, { type: 'body', metatype: AddToCartDto })) as AddToCartDto;
    const { productId, quantity, size, color } = dto;
    return { owner: cartOwner(undefined, dto), line: { productId, quantity, size, color } };
  } catch {
    return undefined;
  }
}

async function readByThePipe(query: string) {
  try {
    const ids = (await pipe.transform(parseQuery(query), { type: 'query', metatype: CartOwnerQuery })) as object;
    return cartOwner(undefined, ids);
  } catch {
    return undefined;
  }
}

const ID = '665f1c2ab7e4a1c3d2e0f9a1';
const GUEST = 'guest_AbC-12_x';
const base = { productId: ID, quantity: 2, size: 'M', color: 'Green', guestId: GUEST };

const variants: Record<string, unknown[]> = {
  productId: [ID, ID.toUpperCase(), `  ${ID} `, ID.slice(1), `${ID}0`, 'g'.repeat(24), 12, null, { $gt: '' }, [ID]],
  quantity: [1, 99, 0, 100, -1, 1.5, '1', null, true, 1e21, Number.MAX_SAFE_INTEGER + 2],
  size: ['M', ' M ', '', ' ', 'x'.repeat(50), 'x'.repeat(51), ` ${'x'.repeat(50)} `, null, 5, '😀'.repeat(26)],
  color: ['Green', '', 'y'.repeat(51), null, { $ne: 1 }],
  guestId: [GUEST, 'guest_$', '', null, 'guest_', `guest_${'a'.repeat(64)}`, `guest_${'a'.repeat(65)}`, 7, 'Guest_a'],
  userId: [null, '', 'u1', 0, { $gt: '' }],
  extra: ['x', { deep: { er: 1 } }],
};

/** Bodies of mixed fields; a small deterministic generator, so a failure names a body that fails again. */
function* sample(count: number): Generator<Record<string, unknown>> {
  let seed = 7;
  const next = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return Math.floor(seed / 65536) % n; // the high bits: an LCG's low ones cycle
  };
  for (let i = 0; i < count; i++) {
    const body: Record<string, unknown> = {};
    for (const [field, values] of Object.entries(variants)) {
      // Half the time the field's first (good) value, else any or none: bodies the pipe takes, and all the others.
      const pick = next(2) ? 0 : next(values.length + 1);
      if (pick < values.length) body[field] = values[pick];
    }
    yield body;
  }
}

describe('the guest lane takes only what the ValidationPipe would take, as it would take it', () => {
  it('takes the usual add, with the productId trimmed and lower-cased and the options trimmed', async () => {
    for (const body of [
      base,
      { productId: ` ${ID.toUpperCase()}`, quantity: 99, size: ' L ', guestId: GUEST, userId: null },
      { productId: ID, quantity: 1, guestId: GUEST, userId: '', color: '' },
      { productId: ID, quantity: 1, guestId: GUEST, somethingElse: { a: 1 } },
    ]) {
      const fast = wellFormedGuestAdd(body);
      expect(fast).toBeDefined();
      const slow = await byThePipe(body);
      expect(fast!.owner).toEqual(slow!.owner);
      expect(fast!.line).toEqual(JSON.parse(JSON.stringify(slow!.line)));
    }
    expect(wellFormedGuestAdd(base)!.line).toEqual({ productId: ID, quantity: 2, size: 'M', color: 'Green' });
  });

  it('never takes an add the pipe or cartOwner() would refuse, or takes one differently (one field changed)', async () => {
    for (const [field, values] of Object.entries(variants))
      for (const value of values) {
        const body = { ...base, [field]: value };
        const fast = wellFormedGuestAdd(body);
        const slow = await byThePipe(body);
        if (!fast) continue;
        expect([field, value, slow]).toEqual([field, value, expect.anything()]);
        expect(fast.owner).toEqual(slow!.owner);
        expect(fast.line).toEqual(JSON.parse(JSON.stringify(slow!.line)));
      }
  });

  it('never takes an add the pipe or cartOwner() would refuse, or takes one differently (3,000 mixed bodies)', async () => {
    let taken = 0;
    let refusedByBoth = 0;
    for (const body of sample(3000)) {
      const fast = wellFormedGuestAdd(body);
      const slow = await byThePipe(body);
      if (!fast) {
        if (!slow) refusedByBoth++;
        continue;
      }
      taken++;
      expect([body, slow]).toEqual([body, expect.anything()]);
      expect(fast.owner).toEqual(slow!.owner);
      expect(fast.line).toEqual(JSON.parse(JSON.stringify(slow!.line)));
    }
    // The sample holds both kinds, so neither branch above went untried.
    expect(taken).toBeGreaterThan(10);
    expect(refusedByBoth).toBeGreaterThan(1000);
  });

  it('declines what is not a plain object', () => {
    for (const body of [null, [base], 'x', 1, true]) expect(wellFormedGuestAdd(body)).toBeUndefined();
  });

  it.each([
    ['guestId=guest_abc', true],
    [`guestId=guest_${'a'.repeat(64)}`, true],
    [`guestId=${GUEST}`, true],
    ['', false],
    ['guestId=', false],
    ['guestId=nope', false],
    [`guestId=guest_${'a'.repeat(65)}`, false],
    ['guestId=guest_a&guestId=guest_b', false],
    ['guestId=guest_%41', false],
    ['guestId=guest_a+b', false],
    ['guestId=guest_a&userId=u1', false],
    ['userId=&guestId=guest_a', false],
    ['guestId=guest_a&x=1', false],
    ['guestid=guest_a', false],
  ])('reads %j: taken %s, and then as the pipe would', async (query, taken) => {
    const fast = wellFormedGuestRead(query);
    expect(fast !== undefined).toBe(taken);
    if (fast) expect(fast).toEqual(await readByThePipe(query));
  });
});
