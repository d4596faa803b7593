import { createContext, useContext } from 'react';

/**
 * The shop's origin for absolute URLs (a product's schema.org data): the browser's own, or, when the gateway renders
 * a page on the server (src/prerender.tsx), the origin the request named.
 */
export const OriginContext = createContext<string | undefined>(undefined);

export function useOrigin(): string {
  // the build's prerender, without a request, renders no product: no URL to make absolute
  return useContext(OriginContext) ?? (typeof window === 'undefined' ? '' : window.location.origin);
}
