import { CONFIG } from '@openseal/core';
import { useSceneValues } from '../../../hooks/use-system-config';
import type { ConfigCodeValue } from '../../../lib/contracts';

/** Routes added by configuration (PLUGIN_ROUTES): unknown paths are looked up here before going home. */
export interface PluginRoute {
  path: string;
  title: string;
  kind: 'iframe' | 'link';
  target: string;
}

export function parsePluginRoutes(values: readonly ConfigCodeValue[]): PluginRoute[] {
  const raw = values.find((v) => v.code === CONFIG.PLUGIN_ROUTES)?.value;
  if (!raw) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  return parsed.flatMap((item): PluginRoute[] => {
    if (typeof item !== 'object' || item === null) return [];
    const r = item as Record<string, unknown>;
    if (typeof r.path !== 'string' || !r.path.startsWith('/')) return [];
    if (r.kind !== 'iframe' && r.kind !== 'link') return [];
    if (typeof r.target !== 'string' || !r.target) return [];
    return [
      { path: r.path, title: typeof r.title === 'string' ? r.title : r.path, kind: r.kind, target: r.target },
    ];
  });
}

export function findPluginRoute(routes: readonly PluginRoute[], path: string): PluginRoute | undefined {
  const wanted = path.replace(/\/+$/, '') || '/';
  return routes.find((r) => (r.path.replace(/\/+$/, '') || '/') === wanted);
}

/** Only http(s) or same-site targets may be embedded or linked. */
export function isSafeTarget(target: string): boolean {
  if (target.startsWith('/') && !target.startsWith('//')) return true;
  try {
    const url = new URL(target);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

export function usePluginRoutes() {
  const query = useSceneValues('PLUGIN_ROUTE');
  return { ...query, routes: query.data ? parsePluginRoutes(query.data) : [] };
}
