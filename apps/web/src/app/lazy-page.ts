import { LIMITS } from '@openseal/core';
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/**
 * React.lazy with the chunk-load timeout of spec section 9: a chunk that has not arrived after two
 * minutes fails, and the route error page offers a reload instead of an endless spinner.
 */
export function lazyPage<P extends object>(
  load: () => Promise<ComponentType<P>>,
  timeoutMs: number = LIMITS.chunkLoadTimeoutMs,
): LazyExoticComponent<ComponentType<P>> {
  return lazy(async () => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('chunk load timeout')), timeoutMs);
    });
    try {
      const component = await Promise.race([load(), timeout]);
      return { default: component };
    } finally {
      clearTimeout(timer);
    }
  });
}
