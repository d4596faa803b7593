import { exceedsJsonDepth, MAX_JSON_DEPTH } from './json-depth';

const nested = (depth: number) => JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`);

describe('exceedsJsonDepth', () => {
  it('accepts scalars and bodies up to the limit', () => {
    expect(exceedsJsonDepth('text')).toBe(false);
    expect(exceedsJsonDepth({ a: { b: [1, { c: null }] } })).toBe(false);
    expect(exceedsJsonDepth(nested(MAX_JSON_DEPTH))).toBe(false);
  });

  it('refuses one level more, and thousands more without overflowing the stack', () => {
    expect(exceedsJsonDepth(nested(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(exceedsJsonDepth({ ok: 1, deep: nested(50_000) })).toBe(true);
  });
});
