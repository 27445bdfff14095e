import { useEffect, useState } from 'react';

/** Loads a widget's option list from a service; `error` is set when it fails. */
export function useOptions<T>(load: () => Promise<T[]>): { options: T[] | null; error: boolean } {
  const [state, setState] = useState<{ options: T[] | null; error: boolean }>({ options: null, error: false });
  useEffect(() => {
    let live = true;
    load().then(
      (options) => live && setState({ options, error: false }),
      () => live && setState({ options: null, error: true }),
    );
    return () => {
      live = false;
    };
    // The loader is a stable service method; load once per mount.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return state;
}
