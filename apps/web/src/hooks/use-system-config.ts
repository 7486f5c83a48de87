import { useQuery } from '@tanstack/react-query';
import type { ConfigScene } from '@openseal/core';
import {
  DEFAULT_SYSTEM_CONFIG,
  loadSceneValues,
  parseSystemConfig,
  type SystemConfig,
} from '../lib/system-config';

export const systemConfigKey = (scene: ConfigScene) => ['config', scene] as const;

/** The public configuration of a scene (HOME by default); never fails, falls back to cache then defaults. */
export function useSystemConfig(scene: ConfigScene = 'HOME'): SystemConfig {
  const { data } = useQuery({
    queryKey: systemConfigKey(scene),
    queryFn: async () => parseSystemConfig(await loadSceneValues(scene)),
    staleTime: 5 * 60_000,
  });
  return data ?? DEFAULT_SYSTEM_CONFIG;
}

export function useSceneValues(scene: ConfigScene) {
  return useQuery({
    queryKey: [...systemConfigKey(scene), 'raw'],
    queryFn: () => loadSceneValues(scene),
    staleTime: 5 * 60_000,
  });
}
