import { useCallback, useEffect, useRef, useState } from 'react';
import { SESSION_LOST_RELOAD_MS } from './identity-rules';

/** A 404 VERIFF_SESSION_NOT_FOUND shows a notice, then the page reloads after 3 s (spec 000 §4.4). */
export function useSessionLost(reloadPage: () => void) {
  const [lost, setLost] = useState(false);
  const reload = useRef(reloadPage);
  useEffect(() => {
    reload.current = reloadPage;
  }, [reloadPage]);
  const lose = useCallback(() => {
    setLost(true);
    setTimeout(() => reload.current(), SESSION_LOST_RELOAD_MS);
  }, []);
  return { lost, lose };
}
