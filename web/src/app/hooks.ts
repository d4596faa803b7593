import { useDeferredValue } from 'react';
import { useDispatch, useSelector, useStore } from 'react-redux';
import type { AppDispatch, AppStore, RootState } from './store';

export const useAppDispatch = useDispatch.withTypes<AppDispatch>();
export const useAppSelector = useSelector.withTypes<RootState>();
export const useAppStore = useStore.withTypes<AppStore>();

/**
 * useAppSelector for what is costly to render (product lists and details). react-redux renders a store update
 * synchronously, in one go; a deferred value is rendered again in a background pass that yields to the browser every
 * few milliseconds, so a slow phone still answers a tap while a list of products arrives (Lighthouse's total
 * blocking time). What renders it should be memoised, or the urgent pass renders it again with the old value.
 */
export function useDeferredSelector<T>(selector: (state: RootState) => T): T {
  return useDeferredValue(useAppSelector(selector));
}
