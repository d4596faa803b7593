// Prerenders the landing pages into web/dist after the client build (web/build.mjs runs it): home, a collection
// and the product page's frame, each as a first visit sees it before any data arrives (src/prerender.tsx). The
// gateway serves them for their routes (dist/prerendered/routes.json), so the phone paints the page from the HTML
// alone instead of after ~100 KB of JS has loaded and run; main.tsx then hydrates it. Every other URL gets the
// plain index.html. Each page also announces its own chunks (modulepreload), so they download beside the entry
// instead of after it has run.
//
// It keeps the Node bundle in dist/.server/ (CommonJS, for the gateway; dotfiles are never served) with
// dist/.server/product.html, the product page's document with <!--app-head--> (title, description, page data) and
// <!--app-html--> (the markup) to fill in: the gateway renders a product page opened from a link with it
// (gateway/src/product-page.ts), so that its main picture is in the HTML.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { FIRST_ROUTES, bootChunks, routeChunks } from './route-size.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const DIST = path.join(here, 'dist');
// Under web/, so that the Node bundle's imports of react & co. resolve from the repository's node_modules.
const SSR_OUT = path.join(DIST, '.server');
const ROOT_ELEMENT = '<div id="root"></div>';
/** index.html's title and meta description, which the gateway writes per product. */
const TITLE_AND_DESCRIPTION = /<title>[^<]*<\/title>\s*<meta\s+name="description"[^>]*>/;

/**
 * index.html with the chunks the entry starts the shop with (route-size.mjs: bootChunks) and their imports preloaded,
 * so that every page fetches them beside the entry instead of one after the other as the entry asks for them.
 */
function withBootPreloads(html) {
  const manifest = JSON.parse(fs.readFileSync(path.join(DIST, '.vite/manifest.json'), 'utf8'));
  const files = new Set();
  const visit = (key) => {
    const chunk = manifest[key];
    if (files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const next of chunk.imports ?? []) visit(next);
  };
  for (const key of bootChunks(manifest).boot) visit(key);
  const preloads = [...files]
    .filter((file) => !html.includes(file))
    .map((file) => `  <link rel="modulepreload" crossorigin href="/${file}">\n  `)
    .join('');
  return html.replace('</head>', () => `${preloads}</head>`);
}

/** The HTML of one landing page: index.html with the page's markup in #root and its chunks preloaded. */
function pageHtml(template, markup, page) {
  // The gateway's CSP forbids inline scripts: React adds some only for boundaries it could not finish.
  if (/<script/i.test(markup)) throw new Error(`the prerendered ${page} holds a script, which the CSP would block`);
  const preloads = routeChunks(page, DIST)
    .chunks.filter((chunk) => !template.includes(chunk.file))
    .map((chunk) => `  <link rel="modulepreload" crossorigin href="/${chunk.file}">\n  `)
    .join('');
  return template
    .replace('</head>', () => `${preloads}</head>`)
    .replace(ROOT_ELEMENT, () => `<div id="root">${markup}</div>`);
}

export async function prerenderPages({ logLevel = 'warn' } = {}) {
  const { build } = await import('vite');
  await build({
    configFile: path.join(here, 'vite.config.mts'),
    logLevel,
    build: {
      ssr: 'src/prerender.tsx',
      outDir: SSR_OUT,
      emptyOutDir: true,
      manifest: false,
      copyPublicDir: false,
      reportCompressedSize: false,
      // CommonJS: the gateway (CommonJS itself) requires it
      rollupOptions: {
        output: { format: 'cjs', entryFileNames: '[name].cjs', chunkFileNames: '[name]-[hash].cjs' },
      },
    },
  });
  const { prerender } = await import(pathToFileURL(path.join(SSR_OUT, 'prerender.cjs')).href);

  const template = withBootPreloads(fs.readFileSync(path.join(DIST, 'index.html'), 'utf8'));
  fs.writeFileSync(path.join(DIST, 'index.html'), template);
  if (!template.includes(ROOT_ELEMENT)) throw new Error(`dist/index.html has no empty ${ROOT_ELEMENT}`);
  fs.mkdirSync(path.join(DIST, 'prerendered'), { recursive: true });
  const routes = [];
  for (const { name, route, page } of FIRST_ROUTES) {
    const file = `prerendered/${name}.html`;
    fs.writeFileSync(path.join(DIST, file), pageHtml(template, await prerender(route), page));
    routes.push({ route, file });
  }
  fs.writeFileSync(path.join(DIST, 'prerendered/routes.json'), `${JSON.stringify(routes, null, 2)}\n`);

  if (!TITLE_AND_DESCRIPTION.test(template)) throw new Error('dist/index.html has no title and meta description');
  const product = FIRST_ROUTES.find((r) => r.name === 'product');
  const productTemplate = pageHtml(template, '<!--app-html-->', product.page).replace(
    TITLE_AND_DESCRIPTION,
    '<!--app-head-->',
  );
  fs.writeFileSync(path.join(SSR_OUT, 'product.html'), productTemplate);
  return routes;
}
