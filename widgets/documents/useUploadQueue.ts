import { useCallback, useEffect, useRef, useState } from 'react';
import type { StepFormContext } from '../types';
import { release, toPending, type Pending } from './files';

/**
 * The files chosen for one multipart field of the step (`files`, `driverLicenseFiles`): while
 * `active`, each is attached through the engine's `attachFile` as `field[i]` (re-indexed when one is
 * removed; keys no longer used are taken back). Previews are revoked, and attachments taken back,
 * when files are removed or the step unmounts.
 */
export function useUploadQueue(field: string, attachFile: StepFormContext['attachFile'], active: boolean) {
  const [queue, setQueue] = useState<Pending[]>([]);
  // The engine's context changes with every render of the runner: keep the latest callback.
  const attach = useRef(attachFile);
  useEffect(() => {
    attach.current = attachFile;
  }, [attachFile]);

  const attached = useRef(0);
  useEffect(() => {
    const list = active ? queue : [];
    list.forEach((p, i) => attach.current(`${field}[${i}]`, p.file, p.file.name));
    for (let i = list.length; i < attached.current; i += 1) attach.current(`${field}[${i}]`, null);
    attached.current = list.length;
  }, [field, queue, active]);

  // Object URLs and attachments go with the step.
  const latest = useRef<Pending[]>([]);
  useEffect(() => {
    latest.current = queue;
  }, [queue]);
  useEffect(
    () => () => {
      release(latest.current);
      for (let i = 0; i < attached.current; i += 1) attach.current(`${field}[${i}]`, null);
    },
    [field],
  );

  const add = useCallback((files: File[]) => setQueue((current) => [...current, ...files.map(toPending)]), []);
  const remove = useCallback((key: string) => {
    setQueue((current) => {
      release(current.filter((p) => p.key === key));
      return current.filter((p) => p.key !== key);
    });
  }, []);
  const clear = () => {
    release(queue);
    setQueue([]);
  };

  return { queue, add, remove, clear };
}

export type UploadQueue = ReturnType<typeof useUploadQueue>;
