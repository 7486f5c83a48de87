import { useEffect, useState, type RefObject } from 'react';

/** The element's inner width in CSS pixels, kept current as it resizes (0 before it mounts). */
export function useElementWidth(ref: RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => setWidth(el.clientWidth);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

/** Whether the element is within `marginPx` above or below the viewport: for drawing pages lazily. */
export function useNearViewport(ref: RefObject<HTMLElement | null>, marginPx: number): boolean {
  const [near, setNear] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const observer = new IntersectionObserver((entries) => setNear(entries.some((e) => e.isIntersecting)), {
      rootMargin: `${marginPx}px 0px`,
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref, marginPx]);
  return near;
}
