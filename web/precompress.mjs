// Compresses the built SPA once, at build time (issue 40): beside every text file of web/dist (JS, CSS, HTML, SVG,
// JSON, text) a Brotli (`.br`, quality 11) and a gzip (`.gz`, level 9) variant, each only where it is smaller than the
// file. The gateway serves the one the client accepts (gateway/src/static-spa.ts) instead of the raw file, without
// compressing anything per request. Node's own zlib makes both: no dependency, and the same Brotli a browser decodes.
// web/build.mjs runs it last, after the prerendered pages are written; `node web/precompress.mjs` runs it on web/dist.
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const here = path.dirname(fileURLToPath(import.meta.url));

/** The files worth compressing, by extension; images and fonts are compressed formats already. */
export const TEXT_FILE = /\.(?:m?js|css|html|svg|json|txt|xml|webmanifest)$/i;

/** The variants written beside a file: encoding (as in Content-Encoding) and file suffix. */
export const VARIANTS = [
  { encoding: 'br', suffix: '.br' },
  { encoding: 'gzip', suffix: '.gz' },
];

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

const compressors = {
  br: (data) =>
    brotli(data, {
      params: {
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
      },
    }),
  gzip: (data) => gzip(data, { level: zlib.constants.Z_BEST_COMPRESSION }),
};

/** Every file under dir, skipping dot-directories (dist/.vite, dist/.server: never served). */
async function* filesUnder(dir) {
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(full);
    else if (entry.isFile()) yield full;
  }
}

/**
 * Writes the variants of every text file under dist (stale ones of a file that no longer gains are removed);
 * resolves with one row a file: its path relative to dist, its size and each variant's size (undefined: not kept).
 */
export async function precompress(dist = path.join(here, 'dist')) {
  const rows = [];
  for await (const file of filesUnder(dist)) {
    if (!TEXT_FILE.test(file)) continue;
    const data = await fs.readFile(file);
    const row = { file: path.relative(dist, file), size: data.length };
    for (const { encoding, suffix } of VARIANTS) {
      const packed = await compressors[encoding](data);
      if (packed.length < data.length) {
        await fs.writeFile(file + suffix, packed);
        row[encoding] = packed.length;
      } else {
        await fs.rm(file + suffix, { force: true });
      }
    }
    rows.push(row);
  }
  return rows;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rows = await precompress();
  const total = (key) => rows.reduce((sum, r) => sum + (r[key] ?? r.size), 0);
  console.log(`${rows.length} files: ${total('size')} B, brotli ${total('br')} B, gzip ${total('gzip')} B`);
}
