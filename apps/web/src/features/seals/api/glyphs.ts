import { contracts } from '@openseal/core';
import type { GlyphSet } from '@openseal/seal-image';
import { useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client';

/** Distinct drawable characters, sorted, so one text set maps to one cache entry. */
export function glyphKey(text: string): string {
  return [...new Set([...text].filter((ch) => ch.trim() !== ''))].sort().join('');
}

/** Outlines of the seal font for the characters a template draws (GET /v1/sealImage/glyphs). */
export function useGlyphs(text: string, font?: string) {
  const key = glyphKey(text);
  return useQuery({
    queryKey: ['sealGlyphs', key, font ?? ''],
    queryFn: async () =>
      contracts.glyphSetOut.parse(await apiGet('/v1/sealImage/glyphs', { text: key, font })) as GlyphSet,
    enabled: key.length > 0,
    staleTime: Infinity,
  });
}
