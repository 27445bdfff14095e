import { useState } from 'react';
import type { StepFormContext } from '../types';
import { useLive } from '../shared/useLive';
import type { SavedFile } from './files';

/** Deletes a saved document (`dossier.deleteDocument`), one at a time, then reloads the request; says "Eroare la ștergerea imaginii!" when it fails. */
export function useSavedFileDelete({ services, reloadRequest }: Pick<StepFormContext, 'services' | 'reloadRequest'>) {
  const [deleting, setDeleting] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const live = useLive();

  /** `deleted` runs once the server has deleted it, before the request reloads. */
  async function remove(file: SavedFile, deleted?: () => void) {
    if (deleting !== null) return;
    setDeleting(file.id);
    setError(null);
    try {
      if (!services.dossier.deleteDocument) throw new Error('no delete service');
      await services.dossier.deleteDocument(file.id);
      if (live.current) deleted?.();
      await reloadRequest();
    } catch {
      if (live.current) setError(services.t('steps:documents.deleteError'));
    } finally {
      if (live.current) setDeleting(null);
    }
  }

  return { deleting, error, remove };
}
