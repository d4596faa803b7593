import { lazy, type ComponentType } from 'react';
import { reloadForNewBuild } from './reload';

/**
 * React.lazy for a route's page, reloading once into a new build when its chunk is gone (./reload.ts); the page's
 * spinner stays meanwhile, and a second failure soon after reaches the router's error screen, which says so.
 */
export function lazyPage<T extends ComponentType<object>>(load: () => Promise<{ default: T }>) {
  return lazy(() => load().catch((error: unknown) => reloadForNewBuild(error)));
}
