import { AUTH_MESSAGES } from '@shop/contracts';
import type { TestService } from '@shop/nest-common/testing';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { adminToken, customerToken, startCatalog } from './catalog.fixtures';

describe('catalog: image uploads', () => {
  let svc: TestService;
  let uploadDir: string;

  const upload = async (
    bytes: Buffer,
    opts: { token?: string; field?: string; filename?: string; type?: string } = {},
  ) => {
    const form = new FormData();
    form.append(
      opts.field ?? 'image',
      new Blob([bytes], { type: opts.type ?? 'image/png' }),
      opts.filename ?? 'photo.png',
    );
    const headers: Record<string, string> = {};
    const token = opts.token === undefined ? adminToken(svc) : opts.token;
    if (token) headers.authorization = `Bearer ${token}`;
    const res = await fetch(`${svc.url}/api/upload`, { method: 'POST', body: form, headers });
    return { status: res.status, body: (await res.json()) as any };
  };

  /** A photo as a phone sends it: large, with EXIF (camera, copyright) that must not be published. */
  const photo = () =>
    sharp({ create: { width: 2400, height: 1200, channels: 3, background: '#97233F' } })
      .withExif({ IFD0: { Copyright: 'Secret Studio', Make: 'PhoneCo' } })
      .jpeg({ quality: 90 })
      .toBuffer();

  beforeAll(async () => {
    uploadDir = fs.mkdtempSync(path.join(os.tmpdir(), 'catalog-uploads-'));
    svc = await startCatalog({ UPLOAD_DIR: uploadDir });
  }, 60_000);
  afterAll(async () => {
    await svc.close();
    fs.rmSync(uploadDir, { recursive: true, force: true });
  });

  it('stores an image as resized WebP without metadata, loadable from its imageUrl', async () => {
    const res = await upload(await photo(), { filename: 'jersey.jpg', type: 'image/jpeg' });
    expect(res.status).toBe(201);
    expect(res.body.imageUrl).toMatch(/^\/uploads\/[a-f0-9]{32}\.webp$/);

    const image = await fetch(`${svc.url}${res.body.imageUrl}`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/webp');
    expect(image.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(image.headers.get('x-content-type-options')).toBe('nosniff');
    const meta = await sharp(Buffer.from(await image.arrayBuffer())).metadata();
    expect(meta).toEqual(expect.objectContaining({ format: 'webp', width: 1600, height: 800 }));
    expect(meta.exif).toBeUndefined();
    expect(fs.readdirSync(uploadDir)).toContain(res.body.imageUrl.split('/').pop());
  });

  it.each<[string, () => Promise<Buffer>, string]>([
    [
      'PNG',
      () =>
        sharp({ create: { width: 40, height: 30, channels: 4, background: '#203731' } })
          .png()
          .toBuffer(),
      'image/png',
    ],
    [
      'GIF',
      () =>
        sharp({ create: { width: 40, height: 30, channels: 3, background: '#FFB612' } })
          .gif()
          .toBuffer(),
      'image/gif',
    ],
    [
      'WebP',
      () =>
        sharp({ create: { width: 40, height: 30, channels: 3, background: '#004C54' } })
          .webp()
          .toBuffer(),
      'image/webp',
    ],
  ])('accepts a %s (small images are not enlarged)', async (_format, make, type) => {
    const res = await upload(await make(), { type });
    expect(res.status).toBe(201);
    const image = await fetch(`${svc.url}${res.body.imageUrl}`);
    expect(await sharp(Buffer.from(await image.arrayBuffer())).metadata()).toEqual(
      expect.objectContaining({ width: 40, height: 30 }),
    );
  });

  it.each<[string, () => Promise<Buffer> | Buffer, string]>([
    [
      'a text file named .png',
      () => Buffer.from('definitely not a picture'),
      'Unsupported image type: send a JPEG, PNG, WebP or GIF image',
    ],
    [
      'an SVG (it can carry script)',
      () => Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
      'Unsupported image type: send a JPEG, PNG, WebP or GIF image',
    ],
    [
      'a damaged PNG',
      () => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(200, 7)]),
      'The image could not be read: it is damaged or too large in pixels',
    ],
  ])('refuses %s with 400, by its content', async (_what, make, message) => {
    const res = await upload(await make(), { type: 'image/png', filename: 'innocent.png' });
    expect(res).toEqual({ status: 400, body: { statusCode: 400, message } });
  });

  it('refuses an image over 5 MB with 413 and stores nothing', async () => {
    const before = fs.readdirSync(uploadDir).length;
    const big = Buffer.concat([await photo(), Buffer.alloc(5 * 1024 * 1024)]);
    const res = await upload(big, { type: 'image/jpeg' });
    expect(res).toEqual({ status: 413, body: { statusCode: 413, message: 'Image is too large: the limit is 5 MB' } });
    expect(fs.readdirSync(uploadDir)).toHaveLength(before);
  });

  it('answers 400 when no file or the wrong field is sent', async () => {
    const empty = await fetch(`${svc.url}/api/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken(svc)}` },
    });
    expect(await empty.json()).toEqual({ statusCode: 400, message: 'No file uploaded' });
    expect(await upload(await photo(), { field: 'file' })).toEqual({
      status: 400,
      body: { statusCode: 400, message: 'Send one image, in the "image" field' },
    });
  });

  it('answers 401 without a token and 403 for a customer', async () => {
    expect(await upload(await photo(), { token: '' })).toEqual({
      status: 401,
      body: { statusCode: 401, message: AUTH_MESSAGES.noToken },
    });
    expect(await upload(await photo(), { token: customerToken(svc) })).toEqual({
      status: 403,
      body: { statusCode: 403, message: AUTH_MESSAGES.notAdmin },
    });
  });

  it('serves only files it stored: unknown names, path tricks and directories are 404, never cached', async () => {
    fs.writeFileSync(path.join(uploadDir, 'secret.txt'), 'not for you');
    fs.mkdirSync(path.join(uploadDir, `${'1'.repeat(32)}.webp`));
    for (const p of [
      '/uploads/secret.txt',
      '/uploads/..%2Fsecret.txt',
      `/uploads/${'0'.repeat(32)}.webp`,
      `/uploads/${'1'.repeat(32)}.webp`,
    ]) {
      const res = await fetch(`${svc.url}${p}`);
      expect([p, res.status, res.headers.get('cache-control'), await res.json()]).toEqual([
        p,
        404,
        null,
        { statusCode: 404, message: 'Image not found' },
      ]);
    }
  });
});
