/** Deepest JSON a request body may be: every body of the API is a few levels deep. */
export const MAX_JSON_DEPTH = 32;

/**
 * True when a parsed JSON value nests deeper than `max` objects/arrays. Walks without recursion, so a
 * body nested thousands deep is refused here (400) instead of overflowing the stack of whatever
 * recursive code (class-transformer, validation) would meet it next.
 */
export function exceedsJsonDepth(value: unknown, max = MAX_JSON_DEPTH): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth > max) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}
