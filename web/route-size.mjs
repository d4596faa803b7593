// What a route loads first, gzipped, from the build's manifest (web/dist/.vite/manifest.json): the entry, the chunks
// it starts the shop with, the route's page chunk, every chunk they import statically, and the CSS those bring.
// web/build.mjs checks each first route (home, a collection, a product page: any can be opened directly from a link)
// against the budget (issue 27: 100 KB of JS) and that no admin code is in it (issue 10); web/prerender.mjs prerenders
// each first route and preloads its chunks; scripts/bench/web.mjs prints the figures; `node web/route-size.mjs [page]`
// lists one route's files.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const here = path.dirname(fileURLToPath(import.meta.url));

/** The pages a shopper can land on from a shared link or a search result, by the route that shows them. */
export const FIRST_ROUTES = [
  { name: 'home', route: '/', page: 'src/pages/HomePage.tsx' },
  { name: 'collection', route: '/collections/all', page: 'src/pages/CollectionPage.tsx' },
  { name: 'product', route: '/product/:id', page: 'src/pages/ProductPage.tsx' },
];

const gzipped = (dist, file) => gzipSync(fs.readFileSync(path.join(dist, file)), { level: 9 }).length;

/**
 * The chunks the entry loads to start the shop: it imports them dynamically, one after the other, so that each is
 * evaluated in a task of its own (src/main.tsx). Every page loads them; web/prerender.mjs preloads them in each page's
 * HTML. (The pages themselves are dynamic imports of the router, in one of these chunks: not followed.)
 */
export function bootChunks(manifest) {
  const entry = Object.keys(manifest).find((key) => manifest[key].isEntry);
  return { entry, boot: manifest[entry].dynamicImports ?? [] };
}

/**
 * What `page` (e.g. "src/pages/HomePage.tsx") needs before it shows: its JS chunks (manifest entries: the entry, the
 * chunks the entry starts the shop with, the page's chunk, and their static imports) and their CSS files, each with
 * its gzipped size, and the totals `gzip` (JS) and `cssGzip`.
 */
export function routeChunks(page, dist = path.join(here, 'dist')) {
  const manifest = JSON.parse(fs.readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'));
  const { entry, boot } = bootChunks(manifest);
  if (!manifest[page]) throw new Error(`${page} is not a chunk of the build`);
  const seen = new Map();
  const styles = new Map();
  const visit = (key) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    seen.set(key, { key, file: chunk.file, gzip: gzipped(dist, chunk.file) });
    for (const file of chunk.css ?? []) if (!styles.has(file)) styles.set(file, { file, gzip: gzipped(dist, file) });
    for (const next of chunk.imports ?? []) visit(next);
  };
  visit(entry);
  for (const key of boot) visit(key);
  visit(page);
  const chunks = [...seen.values()];
  const css = [...styles.values()];
  const total = (files) => files.reduce((sum, f) => sum + f.gzip, 0);
  return { chunks, gzip: total(chunks), css, cssGzip: total(css) };
}

/** Marks of the admin area's code: its slices' action types and the chart library. */
const ADMIN_CODE = /adminUsers\/|adminProducts\/|adminOrders\/|adminDiscounts\/|Admin Dashboard|BarController/;

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
  const { chunks, gzip, css, cssGzip } = routeChunks(page);
  const kb = (bytes) => `${(bytes / 1024).toFixed(2).padStart(8)} KB`;
  for (const c of chunks) console.log(`${kb(c.gzip)}  ${c.file}`);
  console.log(`${kb(gzip)}  gzipped JS of ${page}`);
  for (const c of css) console.log(`${kb(c.gzip)}  ${c.file}`);
  console.log(`${kb(cssGzip)}  gzipped CSS of ${page}`);
}
