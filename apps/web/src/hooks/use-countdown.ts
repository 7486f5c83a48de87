import { useCallback, useEffect, useState } from 'react';

/** A seconds countdown (for "resend code" buttons): the seconds left, and a function that starts it. */
export function useCountdown(): [number, (seconds: number) => void] {
  const [left, setLeft] = useState(0);
  useEffect(() => {
    if (left <= 0) return;
    const timer = window.setTimeout(() => setLeft((s) => s - 1), 1_000);
    return () => window.clearTimeout(timer);
  }, [left]);
  const start = useCallback((seconds: number) => setLeft(seconds > 0 ? seconds : 60), []);
  return [left, start];
}
