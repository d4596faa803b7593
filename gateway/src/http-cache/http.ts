import type { IncomingHttpHeaders, ServerResponse } from 'node:http';

/** Whether Accept-Encoding allows gzip (honours q=0 and `*`). */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  let star: number | undefined;
  for (const part of header.split(',')) {
    const [name, ...params] = part.split(';');
    const token = name.trim().toLowerCase();
    if (token !== 'gzip' && token !== 'x-gzip' && token !== '*') continue;
    let q = 1;
    for (const param of params) {
      const match = /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(param);
      if (match) q = Number(match[1]);
    }
    if (token === '*') star = q;
    else return q > 0;
  }
  return star !== undefined && star > 0;
}

/** If-None-Match (weak comparison, `*`), else If-Modified-Since against the stored Last-Modified. */
export function isNotModified(
  headers: IncomingHttpHeaders,
  validators: { etag: string; lastModified?: number },
): boolean {
  const noneMatch = headers['if-none-match'];
  if (noneMatch !== undefined) {
    const opaque = validators.etag.replace(/^W\//, '');
    return noneMatch.split(',').some((tag) => {
      const t = tag.trim();
      return t === '*' || t.replace(/^W\//, '') === opaque;
    });
  }
  const since = headers['if-modified-since'];
  if (since !== undefined && validators.lastModified !== undefined) {
    const sinceMs = Date.parse(since);
    return !Number.isNaN(sinceMs) && validators.lastModified <= sinceMs;
  }
  return false;
}

export function appendVary(res: ServerResponse, field: string): void {
  const current = res.getHeader('Vary');
  if (current === undefined) res.setHeader('Vary', field);
  else if (!String(current).toLowerCase().includes(field.toLowerCase()))
    res.setHeader('Vary', `${String(current)}, ${field}`);
}
