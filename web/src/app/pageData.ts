import type { ProductJson } from '@shop/contracts';
import type { Remote } from '@/lib/remote';
import { makeStore, rootReducer, type AppStore, type RootState } from './store';

/**
 * What the gateway writes into a product page's HTML beside the page it rendered (gateway/src/product-page.ts): the
 * product the markup shows, so that the app hydrates that markup from the same state instead of fetching it again.
 * A JSON data block (`<script type="application/json">`): never executed, so the CSP's ban on inline scripts holds.
 */
export interface PageData {
  product: ProductJson;
}

export const PAGE_DATA_ID = 'page-data';

/** The page data in `doc`, or undefined (every other page, an older gateway, or a block that does not parse). */
export function readPageData(doc: Document): PageData | undefined {
  const text = doc.getElementById(PAGE_DATA_ID)?.textContent;
  if (!text) return undefined;
  try {
    const data = JSON.parse(text) as Partial<PageData>;
    return data.product && typeof data.product._id === 'string' ? { product: data.product } : undefined;
  } catch {
    return undefined;
  }
}

/** The request id of a product that came with the page (any request for a product replaces it). */
const FROM_PAGE = 'page-data';

/**
 * `state` with the page's product shown, and its You May Also Like list on its way (the page asks for it once it
 * runs): the state the gateway rendered the product page from, and the one the browser hydrates it with.
 */
export function withPageData(state: RootState, { product }: PageData): RootState {
  return {
    ...state,
    catalog: {
      ...state.catalog,
      product: { data: product, status: 'succeeded', error: null, requestId: FROM_PAGE },
      similar: { data: [], status: 'loading', error: null },
    },
  };
}

/**
 * Whether the product page may skip fetching product `id`: it came with the page's HTML, and no product was asked
 * for since (a page loaded after an edit shows it; so does a visit of another product and back).
 */
export const cameWithPage = (slot: Remote<ProductJson | null>, id: string): boolean =>
  slot.requestId === FROM_PAGE && slot.data?._id === id;

/** The store the page starts from: with the page data's product when the HTML came with one. */
export function pageStore(doc: Document): AppStore {
  const data = readPageData(doc);
  return makeStore(data && withPageData(rootReducer(undefined, { type: 'page/start' }), data));
}
