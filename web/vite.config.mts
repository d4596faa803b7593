// Vite build of the storefront SPA into web/dist (served by the gateway with history fallback).
// web/build.mjs runs it after the type check; `npm run dev -w web` serves it with /api proxied to the gateway.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const here = path.dirname(fileURLToPath(import.meta.url));
const gateway = process.env.GATEWAY_URL ?? 'http://localhost:8080';

export default defineConfig({
  root: here,
  plugins: [react(), tailwindcss()],
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
    // The first route's budget is 110 KB of JS gzipped (issue 9): report what each chunk weighs.
    reportCompressedSize: true,
    // dist/.vite/manifest.json: which chunks each route loads (scripts/bench/web.mjs can sum the first route's)
    manifest: true,
    rollupOptions: {
      output: {
        // React and React DOM in one chunk: the first step of src/main.tsx loads them together anyway, and every page
        // preloads the chunks the entry starts with (one file fewer for a slow connection to fetch beside the CSS).
        manualChunks: (id) => (/[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/.test(id) ? 'react' : undefined),
      },
    },
  },
  server: {
    proxy: { '/api': gateway, '/uploads': gateway },
  },
});
