import { BROKEN_TEXT } from '@shop/contracts';

/** Deepest JSON a request body may be: every body of the API is a few levels deep. */
export const MAX_JSON_DEPTH = 32;

export const JSON_BODY_MESSAGES = {
  tooDeep: 'Request body is nested too deeply',
  invalidText: 'Request body contains invalid text (a broken character or a NUL)',
} as const;

/**
 * Why a parsed JSON body is refused before any validation sees it, or undefined when it is fine: nested deeper
 * than `maxDepth` objects/arrays (refused here, 400, instead of overflowing the stack of whatever recursive code
 * — class-transformer, validation — would meet it next), or holding broken text in a key or a string value.
 * Walks without recursion.
 */
export function jsonBodyProblem(value: unknown, maxDepth = MAX_JSON_DEPTH): string | undefined {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (typeof node === 'string') {
      if (BROKEN_TEXT.test(node)) return JSON_BODY_MESSAGES.invalidText;
      continue;
    }
    if (node === null || typeof node !== 'object') continue;
    if (depth > maxDepth) return JSON_BODY_MESSAGES.tooDeep;
    if (Array.isArray(node)) {
      for (const child of node) stack.push([child, depth + 1]);
      continue;
    }
    for (const [key, child] of Object.entries(node)) {
      if (BROKEN_TEXT.test(key)) return JSON_BODY_MESSAGES.invalidText;
      stack.push([child, depth + 1]);
    }
  }
  return undefined;
}
