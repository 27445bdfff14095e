import { useCallback, useEffect, useRef, useState } from 'react';
import { IDENTITY_CONTEXTS, type IdentityContext, type IdentitySession } from '../types';
import { EMPTY_UPLOAD, type UploadState } from './UploadSlot';

export type Uploads = Record<IdentityContext, UploadState>;

const emptyUploads = (): Uploads => ({ 'document-front': { ...EMPTY_UPLOAD }, 'document-back': { ...EMPTY_UPLOAD }, face: { ...EMPTY_UPLOAD } });

/**
 * The three ordered identity uploads as the screen shows them (progress, done, error, preview),
 * and the object URLs of their previews, revoked on reset and when the step unmounts.
 */
export function useIdentityUploads() {
  const [uploads, setUploads] = useState<Uploads>(emptyUploads);
  const objectUrls = useRef<string[]>([]);
  // The latest uploads, for polling callbacks.
  const latest = useRef(uploads);
  useEffect(() => {
    latest.current = uploads;
  }, [uploads]);
  useEffect(() => {
    const urls = objectUrls.current;
    return () => {
      for (const url of urls) URL.revokeObjectURL(url);
    };
  }, []);

  /** Keeps an object URL to revoke it later; returns it. */
  const remember = useCallback((url: string) => {
    if (url.startsWith('blob:')) objectUrls.current.push(url);
    return url;
  }, []);

  const patch = useCallback(
    (context: IdentityContext, change: Partial<UploadState>) => setUploads((current) => ({ ...current, [context]: { ...current[context], ...change } })),
    [],
  );

  /** The photos the server already holds count as done (a reload, or a phone that took them). */
  const markServerUploads = useCallback((server: IdentitySession['uploads']) => {
    setUploads((current) => {
      const next = { ...current };
      for (const context of IDENTITY_CONTEXTS) {
        if (server[context] && !current[context].completed) next[context] = { ...EMPTY_UPLOAD, completed: true };
      }
      return next;
    });
  }, []);

  const reset = useCallback(() => {
    for (const url of objectUrls.current.splice(0)) URL.revokeObjectURL(url);
    setUploads(emptyUploads());
  }, []);

  return {
    uploads,
    latest,
    patch,
    remember,
    markServerUploads,
    reset,
    allUploaded: IDENTITY_CONTEXTS.every((c) => uploads[c].completed),
    anyUploaded: IDENTITY_CONTEXTS.some((c) => uploads[c].completed),
    uploading: IDENTITY_CONTEXTS.some((c) => uploads[c].uploading),
    uploadError: IDENTITY_CONTEXTS.some((c) => uploads[c].hasError),
  };
}

export type IdentityUploads = ReturnType<typeof useIdentityUploads>;
