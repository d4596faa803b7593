// The JS a route loads first, gzipped, from the build's manifest (web/dist/.vite/manifest.json): the entry, the
// route's page chunk, and every chunk they import statically. web/build.mjs checks the home route against its
// budget (issue 9: 110 KB) and that no admin code is in it (issue 10); `node web/route-size.mjs [page]` prints it.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const here = path.dirname(fileURLToPath(import.meta.url));

/** The chunks (manifest entries) `page` (e.g. "src/pages/HomePage.tsx") needs before it shows, with their sizes. */
export function routeChunks(page, dist = path.join(here, 'dist')) {
  const manifest = JSON.parse(fs.readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'));
  const entry = Object.keys(manifest).find((key) => manifest[key].isEntry);
  if (!manifest[page]) throw new Error(`${page} is not a chunk of the build`);
  const seen = new Map();
  const visit = (key) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    const bytes = fs.readFileSync(path.join(dist, chunk.file));
    seen.set(key, { key, file: chunk.file, gzip: gzipSync(bytes, { level: 9 }).length });
    for (const next of chunk.imports ?? []) visit(next);
  };
  visit(entry);
  visit(page);
  const chunks = [...seen.values()];
  return { chunks, gzip: chunks.reduce((sum, c) => sum + c.gzip, 0) };
}

/** Marks of the admin area's code: its slices' action types and the chart library. */
const ADMIN_CODE = /adminUsers\/|adminProducts\/|adminOrders\/|Admin Dashboard|BarController/;

/** The chunks among `chunks` that hold admin code (none may be in a shopper's route). */
export function adminFilesIn(chunks, dist = path.join(here, 'dist')) {
  return chunks
    .filter(
      (c) =>
        /pages\/admin\/|features\/admin\//.test(c.key) ||
        ADMIN_CODE.test(fs.readFileSync(path.join(dist, c.file), 'utf8')),
    )
    .map((c) => c.file);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const page = process.argv[2] ?? 'src/pages/HomePage.tsx';
  const { chunks, gzip } = routeChunks(page);
  for (const c of chunks) console.log(`${(c.gzip / 1024).toFixed(2).padStart(8)} KB  ${c.file}`);
  console.log(`${(gzip / 1024).toFixed(2).padStart(8)} KB  gzipped JS of ${page}`);
}
