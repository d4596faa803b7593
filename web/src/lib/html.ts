/** React 18 passes `fetchpriority` through only in lower case: the first, largest image of a page loads first. */
export const HIGH_PRIORITY = { fetchpriority: 'high' } as Record<string, string>;
