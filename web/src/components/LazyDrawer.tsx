import { lazy, Suspense } from 'react';
import { reloadForNewBuild } from '@/lib/reload';
import type { DrawerProps } from './Drawer';

/** The drawer's code, for an opener to fetch ahead of a tap (pointer over it, keyboard focus on it). */
export const loadDrawer = () => import('./Drawer').catch((error: unknown) => reloadForNewBuild(error));
const Drawer = lazy(() => loadDrawer().then((m) => ({ default: m.Drawer })));

/**
 * A Drawer (./Drawer.tsx) whose code loads when it first opens: the phone menu and the collection's filters panel
 * are closed when a page shows, so their panel is not in its first route's JS (issue 27). Closed, it renders nothing,
 * as the Drawer does; focus goes back to the opener when it closes, as it does.
 */
export function LazyDrawer(props: DrawerProps) {
  if (!props.open) return null;
  return (
    <Suspense fallback={null}>
      <Drawer {...props} />
    </Suspense>
  );
}
