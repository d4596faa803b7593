// The entry: it only loads the shop, in steps that each run in a task of their own (src/lib/tasks.ts). Evaluating
// one module graph is one task, however large: React DOM, the router, Redux Toolkit, axios and the shell were one
// task of ~130 ms on a phone's CPU (Lighthouse's 4× slowdown), right after the first paint of a prerendered page.
// Both chunks are preloaded by every page's HTML (web/prerender.mjs), so the steps do not wait for the network.
import { startFailed } from '@/lib/reload';
import { nextTask } from '@/lib/tasks';
import './index.css';

async function start() {
  const reactDom = await import('react-dom/client'); // React DOM (and React): the largest module
  await nextTask();
  const { boot } = await import('@/app/boot'); // the router, Redux Toolkit, axios, the shell, the store
  await nextTask();
  await boot(reactDom);
}

// A chunk that did not load (a deploy in between, the network) must not leave a page that silently does nothing.
start().catch((error: unknown) => startFailed(error));
