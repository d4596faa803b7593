// The build's prerender entry (web/prerender.mjs bundles it for Node): a landing page's HTML as a first visit sees
// it before any data arrives — layout, header, footer, the page's own frame; never prices or stock.
import { PassThrough } from 'node:stream';
import type { ReactNode } from 'react';
import { renderToPipeableStream } from 'react-dom/server';
import { StaticRouter } from 'react-router-dom';
import { Shop } from '@/app/Shop';
import { asFirstVisit, makeStore } from '@/app/store';

const firstVisitStore = () => makeStore(asFirstVisit(makeStore().getState()));

/** The markup of the shop at `url`, with every lazy page loaded (React waits for them all). */
export function prerender(url: string): Promise<string> {
  const AtUrl = ({ children }: { children: ReactNode }) => <StaticRouter location={url}>{children}</StaticRouter>;
  return new Promise((resolve, reject) => {
    let failure: unknown;
    const stream = renderToPipeableStream(<Shop store={firstVisitStore()} router={AtUrl} />, {
      onAllReady() {
        if (failure) return reject(failure);
        const chunks: Buffer[] = [];
        const out = new PassThrough();
        out.on('data', (chunk: Buffer) => chunks.push(chunk));
        out.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        stream.pipe(out);
      },
      onShellError: reject,
      // an error inside a Suspense boundary would otherwise be swallowed into a client-rendered hole
      onError(error) {
        failure ??= error;
      },
    });
  });
}
