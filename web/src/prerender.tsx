// The server entry (web/prerender.mjs bundles it for Node). The build prerenders the landing pages with it: each as
// a first visit sees it before any data arrives — layout, header, footer, the page's own frame; never prices or
// stock. The gateway renders a product page opened from a link with it (gateway/src/product-page.ts): the page
// whole, its product included, from the state the browser then hydrates it with (src/app/pageData.ts).
import { PassThrough } from 'node:stream';
import type { ReactNode } from 'react';
import { renderToPipeableStream } from 'react-dom/server';
import { StaticRouter } from 'react-router-dom';
import type { ProductJson } from '@shop/contracts';
import { withPageData } from '@/app/pageData';
import { Shop } from '@/app/Shop';
import { asFirstVisit, makeStore, type RootState } from '@/app/store';
import { OriginContext } from '@/lib/origin';
import { pageDescription, pageTitle } from '@/lib/usePageMeta';

const firstVisit = (): RootState => asFirstVisit(makeStore().getState());

/** The markup of the shop at `url` from `state`, with every lazy page loaded (React waits for them all). */
function render(url: string, state: RootState, origin?: string): Promise<string> {
  const AtUrl = ({ children }: { children: ReactNode }) => (
    <OriginContext.Provider value={origin}>
      <StaticRouter location={url}>{children}</StaticRouter>
    </OriginContext.Provider>
  );
  return new Promise((resolve, reject) => {
    let failure: unknown;
    const stream = renderToPipeableStream(<Shop store={makeStore(state)} router={AtUrl} />, {
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

/** A landing page's markup as a first visit sees it before any data arrives (the build's prerender). */
export function prerender(url: string): Promise<string> {
  return render(url, firstVisit());
}

export interface RenderedPage {
  /** The markup of #root. */
  html: string;
  /** The document's title and meta description, as the page sets them once it runs. */
  title: string;
  description: string;
}

/**
 * The product page of `product` as the browser hydrates it from the page data { product } (src/app/pageData.ts):
 * gallery, price, pickers and its schema.org data, with absolute URLs on `origin` (the one the browser sees).
 */
export async function renderProductPage(product: ProductJson, origin: string): Promise<RenderedPage> {
  const url = `/product/${encodeURIComponent(product._id)}`;
  return {
    html: await render(url, withPageData(firstVisit(), { product }), origin),
    title: pageTitle(product.name),
    description: pageDescription(product.description),
  };
}
