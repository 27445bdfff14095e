import { useEffect, useRef } from 'react';
import type { FieldPathList } from '@rjsf/utils';
import type { DocumentsData, LicenceStatus } from './documents-rules';

export interface DocumentsState {
  later: boolean;
  status: LicenceStatus | null;
  licenceBlock: boolean;
  savedDiplomas: number;
  savedLicences: number;
  /** Names of the chosen files (already empty when they are not sent). */
  files: string[];
  driverLicenseFiles: string[];
}

/** What the form data must be for the choices on screen (schemas/documents.json: the engine's "next" follows it). */
export function documentsValue(s: DocumentsState): DocumentsData {
  return {
    send_diploma_later: s.later,
    driver_license_status: s.status,
    diplomas_ready: s.later || s.savedDiplomas + s.files.length > 0,
    licence_ready: !s.licenceBlock || s.status === 0 || s.status === 1 || (s.status === 2 && s.savedLicences + s.driverLicenseFiles.length > 0),
    files: s.files,
    driverLicenseFiles: s.driverLicenseFiles,
  };
}

/**
 * Keeps the step's form data equal to `documentsValue(state)`, and returns `set`, which changes
 * some of it at once (a choice of the user).
 */
export function useDocumentsValue(
  state: DocumentsState,
  formData: DocumentsData | undefined,
  onChange: (value: DocumentsData, path: FieldPathList) => void,
  path: FieldPathList,
) {
  const onChangeRef = useRef(onChange);
  useEffect(() => {
    onChangeRef.current = onChange;
  }, [onChange]);

  const wanted = documentsValue(state);
  const wantedJson = JSON.stringify(wanted);
  const currentJson = JSON.stringify(
    Object.fromEntries(Object.keys(wanted).map((k) => [k, (formData as Record<string, unknown> | undefined)?.[k] ?? (k === 'driver_license_status' ? null : undefined)])),
  );
  useEffect(() => {
    if (wantedJson !== currentJson) onChangeRef.current({ ...(formData ?? {}), ...JSON.parse(wantedJson) } as DocumentsData, path);
  }, [wantedJson, currentJson, formData, path]);

  return (changes: Partial<DocumentsData>) => onChangeRef.current({ ...(formData ?? {}), ...wanted, ...changes } as DocumentsData, path);
}
