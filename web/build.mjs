// Placeholder build: copies web/public to web/dist (Node builtins only). The React app (Vite) replaces it.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const src = path.join(here, 'public');
const dist = path.join(here, 'dist');

fs.rmSync(dist, { recursive: true, force: true });
fs.cpSync(src, dist, { recursive: true });
console.log(`web: copied ${path.relative(process.cwd(), src) || src} to ${path.relative(process.cwd(), dist) || dist}`);
