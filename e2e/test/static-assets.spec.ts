// The built SPA as the gateway of the e2e stack sends it (issue 40): the web build's Brotli and gzip variants of
// each text file (web/precompress.mjs) go to a client that accepts them, byte for byte the built file once decoded;
// a client that accepts no encoding gets the file itself. Read with node:http, which (unlike fetch) leaves the bytes
// as sent.
import * as http from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { e2eEnv, type E2eEnv } from './support';

jest.setTimeout(30_000);

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

function get(base: string, path: string, headers: http.OutgoingHttpHeaders = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    http
      .get(new URL(path, base), { headers, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

describe('the SPA’s files on the wire', () => {
  let env: E2eEnv;
  /** The page's scripts, as its HTML names them (the entry and the chunks it preloads). */
  let scripts: string[];

  beforeAll(async () => {
    env = e2eEnv();
    const page = await get(env.baseUrl, '/');
    expect(page.status).toBe(200);
    scripts = [...page.body.toString().matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]);
    expect(scripts.length).toBeGreaterThan(1);
  });

  it('sends every script of the first page Brotli-compressed to a browser, the built file once decoded', async () => {
    for (const script of scripts) {
      const plain = await get(env.baseUrl, script, { 'accept-encoding': 'identity' });
      const br = await get(env.baseUrl, script, { 'accept-encoding': 'gzip, deflate, br, zstd' });
      expect([script, br.status, br.headers['content-encoding']]).toEqual([script, 200, 'br']);
      expect(br.headers.vary).toMatch(/accept-encoding/i);
      expect(br.headers['content-type']).toMatch(/^text\/javascript/);
      expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
      if (plain.body.length > 4096) expect(br.body.length).toBeLessThan(plain.body.length / 2);
    }
  });

  it('sends gzip to a client that takes only gzip, and the file as it is to one that takes no encoding', async () => {
    const [script] = scripts;
    const plain = await get(env.baseUrl, script);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    expect(Number(plain.headers['content-length'])).toBe(plain.body.length);
    const gz = await get(env.baseUrl, script, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);
    // its own ETag per encoding: a cache revalidating the gzip copy gets 304 for it
    expect(gz.headers.etag).not.toBe(plain.headers.etag);
    const again = await get(env.baseUrl, script, { 'accept-encoding': 'gzip', 'if-none-match': gz.headers.etag! });
    expect(again.status).toBe(304);
  });

  it('sends the pages’ HTML and the stylesheet compressed too', async () => {
    const page = await get(env.baseUrl, '/collections/all', { 'accept-encoding': 'gzip, deflate, br' });
    expect(page.headers['content-encoding']).toBe('br');
    expect(page.headers['cache-control']).toBe('no-cache');
    const html = brotliDecompressSync(page.body).toString();
    expect(html).toContain('<div id="root">');
    const css = /href="(\/assets\/[^"]+\.css)"/.exec(html)?.[1];
    expect(css).toBeDefined();
    const style = await get(env.baseUrl, css!, { 'accept-encoding': 'gzip, deflate, br' });
    expect(style.headers['content-encoding']).toBe('br');
    expect(style.headers['content-type']).toMatch(/^text\/css/);
  });
});
