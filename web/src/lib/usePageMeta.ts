import { useEffect } from 'react';
import { STORE_NAME } from './shop';

const DEFAULT_DESCRIPTION =
  'NFL-themed clothing, equipment and accessories, priced in pounds sterling. Free international shipping on orders over £50.';

/** Sets the page's title and meta description (every page has its own: issue 9 item 10). */
export function usePageMeta(title: string | undefined, description?: string): void {
  useEffect(() => {
    document.title = title ? `${title} | ${STORE_NAME}` : `${STORE_NAME} — NFL jerseys, fan wear and equipment`;
    let meta = document.querySelector<HTMLMetaElement>('meta[name="description"]');
    if (!meta) {
      meta = document.createElement('meta');
      meta.name = 'description';
      document.head.appendChild(meta);
    }
    meta.content = (description ?? DEFAULT_DESCRIPTION).slice(0, 160);
  }, [title, description]);
}
