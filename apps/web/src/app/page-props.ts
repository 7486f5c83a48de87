import type { ResolvedRoute } from './route-table';

export type { PageProps } from '../lib/page';

/** Stored as react-router `handle` on every route built from the table. */
export interface RouteHandle {
  route: ResolvedRoute;
}

export function isRouteHandle(value: unknown): value is RouteHandle {
  return typeof value === 'object' && value !== null && 'route' in value;
}
