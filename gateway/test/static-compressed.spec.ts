import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { rawRequest, startGateway, startUpstream, testConfig, type Running, type Upstream } from './helpers';

// A build's files with the variants web/precompress.mjs writes beside them (a JS asset large enough that its
// variants are smaller), and a file without any.
const SCRIPT = Array.from({ length: 200 }, (_, i) => `export const value${i} = "the shop's chunk, line ${i}";`).join(
  '\n',
);
const INDEX = `<!doctype html><html><head><title>Shop</title></head><body><div id="root">${'<p>frame</p>'.repeat(
  100,
)}</div></body></html>`;
const PLAIN = 'console.log("no variants");';

describe('serving the build’s compressed variants', () => {
  let dist: string;
  let catalog: Upstream;
  let gw: Running;

  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), 'gw-web-compressed-'));
    mkdirSync(join(dist, 'assets'));
    for (const [file, text] of [
      ['assets/index-abc123.js', SCRIPT],
      ['index.html', INDEX],
    ]) {
      writeFileSync(join(dist, file), text);
      writeFileSync(join(dist, `${file}.br`), brotliCompressSync(text));
      writeFileSync(join(dist, `${file}.gz`), gzipSync(text));
    }
    writeFileSync(join(dist, 'assets', 'plain-def456.js'), PLAIN);
    catalog = await startUpstream('catalog');
    gw = await startGateway(testConfig({ catalog }, { WEB_DIST: dist }));
  });

  afterAll(async () => {
    await gw.close();
    await catalog.close();
    rmSync(dist, { recursive: true, force: true });
  });

  const get = (path: string, headers: Record<string, string> = {}) => rawRequest(gw.url, { path, headers });

  it('sends a JS asset as Brotli to a browser that accepts it, the same script once decoded', async () => {
    const res = await get('/assets/index-abc123.js', { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^text\/javascript/);
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(Number(res.headers['content-length'])).toBe(res.body.length);
    expect(res.body.length).toBeLessThan(Buffer.byteLength(SCRIPT) / 4);
    expect(brotliDecompressSync(res.body).toString()).toBe(SCRIPT);
  });

  it('sends gzip to a client that takes gzip only, or prefers it by q-value', async () => {
    for (const accept of ['gzip', 'br;q=0.5, gzip', 'br;q=0, *']) {
      const res = await get('/assets/index-abc123.js', { 'accept-encoding': accept });
      expect([accept, res.headers['content-encoding']]).toEqual([accept, 'gzip']);
      expect(gunzipSync(res.body).toString()).toBe(SCRIPT);
    }
  });

  it('sends the file as it is to a client that accepts no encoding, still saying that the answer varies', async () => {
    const refusals: Record<string, string>[] = [
      {},
      { 'accept-encoding': 'identity' },
      { 'accept-encoding': 'br;q=0, gzip;q=0' },
    ];
    for (const headers of refusals) {
      const res = await get('/assets/index-abc123.js', headers);
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(res.body.toString()).toBe(SCRIPT);
    }
  });

  it('gives each encoding its own ETag and answers a revalidation of it with 304', async () => {
    const br = await get('/assets/index-abc123.js', { 'accept-encoding': 'br' });
    const plain = await get('/assets/index-abc123.js');
    expect(br.headers.etag).toBeDefined();
    expect(br.headers.etag).not.toBe(plain.headers.etag);
    const again = await get('/assets/index-abc123.js', {
      'accept-encoding': 'br',
      'if-none-match': br.headers.etag as string,
    });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });

  it('answers HEAD with the variant’s headers and no body', async () => {
    const res = await rawRequest(gw.url, {
      method: 'HEAD',
      path: '/assets/index-abc123.js',
      headers: { 'accept-encoding': 'gzip, br' },
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.body.length).toBe(0);
  });

  it('sends the pages’ HTML compressed too, revalidated', async () => {
    for (const path of ['/', '/checkout']) {
      const res = await get(path, { 'accept-encoding': 'gzip, deflate, br' });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe('br');
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(brotliDecompressSync(res.body).toString()).toBe(INDEX);
    }
  });

  it('leaves a small file without variants as it is, and a missing asset a 404', async () => {
    const plain = await get('/assets/plain-def456.js', { 'accept-encoding': 'gzip, br' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(PLAIN);
    const missing = await get('/assets/gone-000000.js', { 'accept-encoding': 'gzip, br' });
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.body.toString())).toEqual({ message: 'Not found', statusCode: 404 });
  });

  it('never sends a variant of a file outside the build', async () => {
    const res = await get('/assets/..%2f..%2fetc%2fpasswd', { 'accept-encoding': 'gzip, br' });
    expect(res.status).toBe(404);
  });
});
