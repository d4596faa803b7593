// Vite build of the storefront SPA into web/dist (served by the gateway with history fallback).
// web/build.mjs runs it after the type check; `npm run dev -w web` serves it with /api proxied to the gateway.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const here = path.dirname(fileURLToPath(import.meta.url));
const gateway = process.env.GATEWAY_URL ?? 'http://localhost:8080';

/**
 * axios without its fetch adapter in the browser build. axios tries its adapters in the order of its default
 * `adapter: ['xhr', 'http', 'fetch']` and takes the first the platform has: every browser has XMLHttpRequest, so the
 * fetch adapter is never used, yet it is bundled (a fifth of axios's weight: 4.5 KB gzipped of every first route,
 * issue 27). Its module is replaced by what axios's own adapter table reads from it (`getFetch`), saying the
 * platform has none; the SPA sets no `adapter` of its own. The server build (web/prerender.mjs, run by Node) keeps
 * the real one.
 */
function axiosWithoutFetchAdapter(): Plugin {
  return {
    name: 'shop:axios-without-fetch-adapter',
    enforce: 'pre',
    apply: (_, env) => !env.isSsrBuild,
    load(id) {
      if (/[\\/]node_modules[\\/]axios[\\/]lib[\\/]adapters[\\/]fetch\.js$/.test(id))
        return 'export const getFetch = () => false;\nexport default false;\n';
      return null;
    },
  };
}

/**
 * The SPA's imports of 'axios' in the browser build resolve to web/axios-browser.mjs: axios's default export without
 * the helpers the SPA does not use (CancelToken, HttpStatusCode, toFormData, ...), which are properties of that one
 * object and so are bundled whether used or not (1.2 KB gzipped of every first route, issue 27). The server build,
 * the dev server and the unit tests use the package as it is.
 */
function axiosWithoutUnusedHelpers(): Plugin {
  const lean = path.join(here, 'axios-browser.mjs');
  return {
    name: 'shop:axios-without-unused-helpers',
    enforce: 'pre',
    apply: (_, env) => env.command === 'build' && !env.isSsrBuild,
    resolveId: (source, importer) => (source === 'axios' && importer !== lean ? lean : null),
  };
}

/**
 * react-router's production build in the browser build. Its package.json exports only `dist/development`, whose
 * `ENABLE_DEV_WARNINGS` is `true`, so a production bundle carries the development warnings and their messages
 * (remix-run/react-router#14102, open); `dist/production` is the same code with the flag `false`: 0.5 KB gzipped
 * less on every first route (issue 27). The dev server, the prerender's server build and the unit tests keep the
 * development build and its warnings.
 */
function reactRouterProductionBuild(): Plugin {
  const dist = path.join(path.dirname(createRequire(import.meta.url).resolve('react-router/package.json')), 'dist');
  const production: Record<string, string> = {
    'react-router': path.join(dist, 'production/index.mjs'),
    'react-router/dom': path.join(dist, 'production/dom-export.mjs'),
  };
  return {
    name: 'shop:react-router-production-build',
    enforce: 'pre',
    apply: (_, env) => env.command === 'build' && !env.isSsrBuild,
    resolveId: (source) => production[source] ?? null,
  };
}

export default defineConfig({
  root: here,
  plugins: [
    react(),
    tailwindcss(),
    axiosWithoutFetchAdapter(),
    axiosWithoutUnusedHelpers(),
    reactRouterProductionBuild(),
  ],
  resolve: {
    alias: {
      '@/': `${path.join(here, 'src')}/`,
      '@shop/contracts': path.join(here, '../packages/contracts/src/index.ts'),
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    // The first route's budget is 100 KB of JS gzipped (issue 27, web/build.mjs): report what each chunk weighs.
    reportCompressedSize: true,
    // dist/.vite/manifest.json: which chunks each route loads (scripts/bench/web.mjs can sum the first route's)
    manifest: true,
    // every browser of an es2022 build supports <link rel="modulepreload">: no polyfill in the entry
    modulePreload: { polyfill: false },
    rollupOptions: {
      output: {
        // React and React DOM in one chunk: the first step of src/main.tsx loads them together anyway, and every page
        // preloads the chunks the entry starts with (one file fewer for a slow connection to fetch beside the CSS).
        // The orders contract's values (its messages, the delivery estimate, the returns') are the order pages' and the
        // admin's only:
        // a chunk of their own, which the merge below leaves alone; left to it, they went into the boot chunk that
        // every page loads (0.4 KB gzipped of each first route, issue 27).
        manualChunks: (id) => {
          if (/[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/.test(id)) return 'react';
          if (/[\\/]packages[\\/]contracts[\\/]src[\\/](orders|returns)\.ts$/.test(id)) return 'orders-contract';
          return undefined;
        },
        // Rollup merges a chunk smaller than this into one that is loaded with it anyway, where that changes nothing
        // that runs: left alone, the shared bits of the catalogue's pages (a price, swatches, an attribute) became files
        // of 0.1-0.3 KB, each one more request a first route makes before its first paint on a slow connection.
        experimentalMinChunkSize: 2048,
      },
    },
  },
  server: {
    proxy: { '/api': gateway, '/uploads': gateway },
  },
});
