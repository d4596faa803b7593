/**
 * @jest-environment jsdom
 * @jest-environment-options {"customExportConditions": ["node", "require", "default"]}
 */
// The prerendered landing pages (web/prerender.mjs) hydrate in the browser as they are, whoever opens them: a
// returning visitor's stored session and cart must not make the first render differ from the HTML (React would
// then throw the HTML away, repaint the page and report an error). Node's export conditions: react-dom/server's
// streaming renderer, as the build uses it.
import { setImmediate } from 'node:timers';
import { act } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { STORAGE_KEYS } from '@/lib/storage';
import { aCart, aProduct, aUser, fakeApi } from '@/test/utils';
import { PAGE_DATA_ID, pageStore, readPageData } from './pageData';
import { Shop } from './Shop';
import { asFirstVisit, makeStore } from './store';

// react-dom/server's Node renderer schedules its work with setImmediate, which jsdom does not have
Object.assign(globalThis, { setImmediate });

/**
 * The build's prerender of `url`, from modules of its own (react, the router's contexts; the lazy pages too, loaded
 * while it renders): React's server renderer leaves its last context values set, which a client render in the same
 * module registry would read as its own.
 */
async function prerender(url: string): Promise<string> {
  // react-redux's Provider picks useLayoutEffect when it sees a DOM, which this server render has (jsdom) and the
  // build's does not: React's development warning about it is noise here
  const report = console.error;
  const quiet = jest.spyOn(console, 'error').mockImplementation((message: unknown, ...rest: unknown[]) => {
    if (!String(message).includes('useLayoutEffect does nothing on the server')) report(message, ...rest);
  });
  let markup = '';
  try {
    await jest.isolateModulesAsync(async () => {
      markup = await (await import('@/prerender')).prerender(url);
    });
  } finally {
    quiet.mockRestore();
  }
  return markup;
}

let root: Root | undefined;
afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  document.body.innerHTML = '';
  jest.restoreAllMocks();
});

/** Shows `markup` (prerendered for `url`) as the browser would receive it, then hydrates it; returns what React reported. */
async function hydrate(url: string, markup: string, { fromFirstVisit }: { fromFirstVisit: boolean }) {
  window.history.pushState({}, '', url);
  document.body.innerHTML = `<div id="root">${markup}</div>`;
  const container = document.getElementById('root')!;
  const heading = container.querySelector('h1');
  const errors: unknown[] = [];
  const store = makeStore();
  await act(async () => {
    root = hydrateRoot(
      container,
      <Shop
        store={store}
        router={BrowserRouter}
        serverState={fromFirstVisit ? asFirstVisit(store.getState()) : undefined}
      />,
      { onRecoverableError: (error) => errors.push(error) },
    );
  });
  return { container, heading, errors };
}

beforeEach(() => {
  fakeApi({ 'GET /api/cart': { body: aCart([{ quantity: 3 }]) } });
  window.localStorage.setItem(STORAGE_KEYS.user, JSON.stringify(aUser()));
  window.localStorage.setItem(STORAGE_KEYS.token, 'a-token');
  window.localStorage.setItem(STORAGE_KEYS.cart, JSON.stringify(aCart([{ quantity: 3 }])));
});

it('prerenders the home page whole, with no script (the CSP forbids inline ones)', async () => {
  const markup = await prerender('/');
  expect(markup).toContain('Game day');
  expect(markup).toContain('Explore New Arrivals');
  expect(markup).not.toMatch(/<script/i);
});

it.each(['/', '/collections/all', '/product/65a000000000000000000001'])(
  'hydrates the prerendered %s for a returning visitor, keeping its HTML, then shows the session and cart',
  async (url) => {
    const { container, heading, errors } = await hydrate(url, await prerender(url), { fromFirstVisit: true });
    expect(errors).toEqual([]);
    expect(heading === null || container.contains(heading)).toBe(true);
    expect(container.querySelector('[data-testid="cart-badge"]')).toHaveTextContent('3');
    expect(container.querySelector('a[aria-label="My profile (Jane Fan)"]')).not.toBeNull();
  },
);

it('would throw the HTML away if it hydrated from the stored session (the check above can fail)', async () => {
  const markup = await prerender('/');
  jest.spyOn(console, 'error').mockImplementation(() => undefined); // React's own report of the mismatch
  const { errors } = await hydrate('/', markup, { fromFirstVisit: false });
  expect(errors).not.toEqual([]);
});

describe('a product page the gateway rendered with its product (gateway/src/product-page.ts)', () => {
  const product = aProduct({ name: 'Packers </script> Home Jersey' });
  const url = `/product/${product._id}`;

  /** The page as the gateway sends it: the server entry's markup, and the product as page data. */
  async function productPageHtml(): Promise<{ head: string; body: string }> {
    let html = '';
    await jest.isolateModulesAsync(async () => {
      html = (await (await import('@/prerender')).renderProductPage(product, 'http://localhost')).html;
    });
    const data = JSON.stringify({ product }).replace(/</g, '\\u003c');
    return { head: `<script type="application/json" id="${PAGE_DATA_ID}">${data}</script>`, body: html };
  }

  it('hydrates it as it is from the page data, and asks only for You May Also Like', async () => {
    const { head, body } = await productPageHtml();
    const similar = aProduct({ _id: '65a000000000000000000002', name: 'Packers Away Jersey' });
    const calls = fakeApi({
      'GET /api/cart': { body: aCart([{ quantity: 3 }]) },
      [`GET /api/products/similar/${product._id}`]: { body: [similar] },
    });
    window.history.pushState({}, '', url);
    document.head.innerHTML = head;
    document.body.innerHTML = `<div id="root">${body}</div>`;
    const container = document.getElementById('root')!;
    const heading = container.querySelector('h1');
    expect(heading).toHaveTextContent('Packers </script> Home Jersey');
    expect(container.querySelector('img[fetchpriority="high"]')).toHaveAttribute('src', product.images[0].url);

    const errors: unknown[] = [];
    const store = pageStore(document);
    await act(async () => {
      root = hydrateRoot(
        container,
        <Shop store={store} router={BrowserRouter} serverState={asFirstVisit(store.getState())} />,
        { onRecoverableError: (error) => errors.push(error) },
      );
    });
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));

    expect(errors).toEqual([]);
    expect(container.contains(heading)).toBe(true); // the very element the HTML came with
    expect(container).toHaveTextContent('Packers Away Jersey');
    expect(calls.map((c) => c.url)).not.toContain(`/api/products/${product._id}`);
    expect(calls.map((c) => c.url)).toContain(`/api/products/similar/${product._id}`);
    document.head.innerHTML = '';
  });

  it('reads no page data from a page without it, nor from a block that does not parse', () => {
    document.head.innerHTML = '';
    expect(readPageData(document)).toBeUndefined();
    document.head.innerHTML = `<script type="application/json" id="${PAGE_DATA_ID}">{"product":</script>`;
    expect(readPageData(document)).toBeUndefined();
    document.head.innerHTML = '';
  });
});
