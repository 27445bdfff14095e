import { useEffect, useRef, type RefObject } from 'react';

/** True while the component is mounted: async work checks it before setting state. */
export function useLive(): RefObject<boolean> {
  const live = useRef(true);
  useEffect(() => {
    live.current = true;
    return () => {
      live.current = false;
    };
  }, []);
  return live;
}
