import { useEffect } from 'react';
import { STORE_NAME } from './shop';

const DEFAULT_DESCRIPTION =
  'NFL-themed clothing, equipment and accessories, priced in pounds sterling. Free international shipping on orders over £50.';

/** A page's document title: its own title beside the store's name, or the store's (home). */
export const pageTitle = (title: string | undefined): string =>
  title ? `${title} | ${STORE_NAME}` : `${STORE_NAME} — NFL jerseys, fan wear and equipment`;

/** A page's meta description, at most 160 characters (what search results show). */
export const pageDescription = (description: string | undefined): string =>
  (description ?? DEFAULT_DESCRIPTION).slice(0, 160);

/** Sets the page's title and meta description (every page has its own: issue 9 item 10). */
export function usePageMeta(title: string | undefined, description?: string): void {
  useEffect(() => {
    document.title = pageTitle(title);
    let meta = document.querySelector<HTMLMetaElement>('meta[name="description"]');
    if (!meta) {
      meta = document.createElement('meta');
      meta.name = 'description';
      document.head.appendChild(meta);
    }
    meta.content = pageDescription(description);
  }, [title, description]);
}
