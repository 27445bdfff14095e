import { useEffect, useRef } from 'react';

/** Calls `tick` every `ms` while `enabled` (the latest `tick`: no restart when it changes); `tick` gets a function that stops the polling. */
export function usePolling(enabled: boolean, ms: number, tick: (stop: () => void) => void) {
  const latest = useRef(tick);
  useEffect(() => {
    latest.current = tick;
  }, [tick]);
  useEffect(() => {
    if (!enabled) return;
    const timer = setInterval(() => latest.current(() => clearInterval(timer)), ms);
    return () => clearInterval(timer);
  }, [enabled, ms]);
}
