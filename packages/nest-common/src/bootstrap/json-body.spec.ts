import { JSON_BODY_MESSAGES, jsonBodyProblem, MAX_JSON_DEPTH } from './json-body';

const nested = (depth: number) => JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`);

describe('jsonBodyProblem', () => {
  it('accepts scalars, ordinary text and bodies up to the depth limit', () => {
    expect(jsonBodyProblem('text')).toBeUndefined();
    expect(jsonBodyProblem({ a: { b: [1, { c: null }] } })).toBeUndefined();
    expect(jsonBodyProblem(nested(MAX_JSON_DEPTH))).toBeUndefined();
    expect(jsonBodyProblem(JSON.parse('{"name": "Zoë 🏈 Ñandú", "note": "tab\\tand\\nlines"}'))).toBeUndefined();
  });

  it('refuses one level more, and thousands more without overflowing the stack', () => {
    expect(jsonBodyProblem(nested(MAX_JSON_DEPTH + 1))).toBe(JSON_BODY_MESSAGES.tooDeep);
    expect(jsonBodyProblem({ ok: 1, deep: nested(50_000) })).toBe(JSON_BODY_MESSAGES.tooDeep);
  });

  it.each([
    ['a lone high surrogate', '{"email": "\\ud800"}'],
    ['a lone low surrogate', '{"email": "a\\udc00b"}'],
    ['a surrogate pair reversed', '{"name": "\\udc00\\ud800"}'],
    ['broken text deep in a list', '{"lines": [{"size": "M"}, {"size": "\\ud83d"}]}'],
    ['broken text in a key', '{"\\ud800": "x"}'],
    ['a NUL', '{"name": "a\\u0000b"}'],
  ])('refuses %s', (_what, json) => {
    expect(jsonBodyProblem(JSON.parse(json))).toBe(JSON_BODY_MESSAGES.invalidText);
  });
});
