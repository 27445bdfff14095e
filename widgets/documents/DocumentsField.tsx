import { useId, useRef } from 'react';
import { Alert, Button, Heading, HStack, Stack, Text } from '@chakra-ui/react';
import type { FieldProps } from '@rjsf/utils';
import { FieldErrors } from '../shared/FieldErrors';
import { stepContext } from '../types';
import { AttorneyScreen, UploadProgress } from './AttorneyScreen';
import { DOCUMENT_ACCEPT, savedList } from './files';
import { FileRows } from './FileRows';
import { LicenceBlock } from './LicenceBlock';
import { hasLicenceBlock, licenceStatus, type DocumentsData, type DocumentsOptions, type LicenceStatus } from './documents-rules';
import { useAttorneyGuard } from './useAttorneyGuard';
import { useDocumentsValue } from './useDocumentsValue';
import { useSavedFileDelete } from './useSavedFileDelete';
import { useUploadQueue } from './useUploadQueue';

export { DOCUMENT_ACCEPT } from './files';
export type { DocumentsData } from './documents-rules';

type ErrorTree = Record<string, { __errors?: string[] } & Record<string, { __errors?: string[] }>>;

/**
 * The documents step (spec 001 §2 item 2, §4 "Diploma", "Driver licence", "Documents step"):
 * diplomas or the activity's professional documents (saved and chosen files, each with a preview,
 * a delete action and its own error), "send later", and where the step's `licence` option says so
 * (not under the credit partner) the driving licence / ARR attestation / credit-consultant
 * certificate block with upload now (2), send later (1) and, for couriers, no licence (0). Chosen
 * files go with the step's multipart submit as `files[i]` and `driverLicenseFiles[i]`. The first
 * press of "next" shows the power-of-attorney screen and records that it was seen; the second submits.
 */
export default function DocumentsField(props: FieldProps<DocumentsData>) {
  const { formData, onChange, registry, fieldPathId, uiSchema, errorSchema, disabled, readonly } = props;
  const context = stepContext(registry);
  const { services, media, attachFile, setSubmitGuard, uploadProgress, submitting } = context;
  const { t } = services;
  const options = (uiSchema?.['ui:options'] ?? {}) as DocumentsOptions;
  const licence = options.licence ?? null;
  const licenceBlock = hasLicenceBlock(options);
  const off = Boolean(disabled || readonly);
  const ids = useId();
  const diplomaInput = useRef<HTMLInputElement | null>(null);

  const savedDiplomas = savedList(media, 'diploma_documents');
  const savedLicences = savedList(media, 'driver_license');
  const later = formData?.send_diploma_later === true;
  const status = licenceStatus(options, formData?.driver_license_status);
  const diplomas = useUploadQueue('files', attachFile, !later);
  const licences = useUploadQueue('driverLicenseFiles', attachFile, status === 2);
  const deletion = useSavedFileDelete(context);
  const attorney = useAttorneyGuard(setSubmitGuard, () => services.dossier.acknowledgeAttorney?.() ?? Promise.resolve(), submitting);
  const set = useDocumentsValue(
    {
      later,
      status,
      licenceBlock,
      savedDiplomas: savedDiplomas.length,
      savedLicences: savedLicences.length,
      files: later ? [] : diplomas.queue.map((p) => p.file.name),
      driverLicenseFiles: status === 2 ? licences.queue.map((p) => p.file.name) : [],
    },
    formData,
    onChange,
    fieldPathId.path,
  );

  // Removing the last licence file goes back to "send later" (spec §4).
  const lastLicence = () => status === 2 && savedLicences.length + licences.queue.length === 1;

  function addDiplomas(files: File[]) {
    diplomas.add(files);
    // Choosing upload clears the send-later flag (spec §4 "Diploma").
    if (later) set({ send_diploma_later: false });
  }

  function chooseLater() {
    // Choosing send-later clears the chosen files (saved ones are removed when the step is sent).
    diplomas.clear();
    set({ send_diploma_later: !later });
  }

  function chooseStatus(value: LicenceStatus) {
    if (value !== 2) licences.clear();
    set({ driver_license_status: value });
  }

  const errors = (errorSchema ?? {}) as ErrorTree;
  const fileError = (field: 'files' | 'driverLicenseFiles') => (i: number) => errors[field]?.[String(i)]?.__errors?.[0];
  const hasFileErrors = ['files', 'driverLicenseFiles'].some((field) => Object.keys(errors[field] ?? {}).some((k) => /^\d+$/.test(k)));
  const percent = uploadProgress === null ? null : Math.round(uploadProgress * 100);

  if (attorney.shown) return <AttorneyScreen t={t} percent={percent} submitting={submitting} onBack={attorney.back} />;

  return (
    <Stack gap="6" data-testid="documents-step">
      <Stack gap="3" role="group" aria-labelledby={`${ids}-heading`}>
        <Heading as="h2" size="md" id={`${ids}-heading`}>
          {t(options.heading ?? 'steps:documents.diplomaHeading')}
        </Heading>
        <Text>{t(options.text ?? 'steps:documents.diplomaText')}</Text>
        <Text fontSize="sm" color="fg.muted" id={`${ids}-hint`}>
          {t('steps:documents.uploadHint')}
        </Text>
        <input
          ref={diplomaInput}
          type="file"
          multiple
          accept={DOCUMENT_ACCEPT}
          hidden
          data-testid="documents-input"
          aria-describedby={`${ids}-hint`}
          onChange={(e) => {
            const chosen = Array.from(e.currentTarget.files ?? []);
            if (chosen.length) addDiplomas(chosen);
            e.currentTarget.value = '';
          }}
        />
        <HStack gap="3" wrap="wrap">
          <Button colorPalette="blue" variant={later ? 'outline' : 'solid'} onClick={() => diplomaInput.current?.click()} disabled={off} width={{ base: 'full', md: 'auto' }}>
            {t('steps:documents.upload')}
          </Button>
          <Button variant={later ? 'solid' : 'outline'} colorPalette="blue" aria-pressed={later} onClick={chooseLater} disabled={off} width={{ base: 'full', md: 'auto' }}>
            {t('steps:documents.sendLater')}
          </Button>
        </HStack>
        {later && savedDiplomas.length ? <Text fontSize="sm">{t('steps:documents.sendLaterHint')}</Text> : null}
        <FileRows
          label={t('steps:documents.filesLabel')}
          saved={savedDiplomas}
          pending={later ? [] : diplomas.queue}
          kind="file"
          errorIds={{ saved: `${ids}-saved`, pending: `${ids}-file` }}
          pendingError={fileError('files')}
          deleting={deletion.deleting}
          disabled={off || submitting}
          onDeleteSaved={(file) => void deletion.remove(file)}
          onDeletePending={diplomas.remove}
          services={services}
        />
        <FieldErrors id={`${ids}-files-error`} errors={errors.files?.__errors} />
      </Stack>

      {licenceBlock && licence ? (
        <LicenceBlock
          licence={licence}
          noLicenceChoice={options.noLicenceChoice === true}
          status={status}
          saved={savedLicences}
          pending={licences.queue}
          statusErrors={errors.driver_license_status?.__errors}
          filesErrors={errors.driverLicenseFiles?.__errors}
          fileError={fileError('driverLicenseFiles')}
          name={`${fieldPathId.$id}_licence`}
          ids={ids}
          off={off}
          rowsDisabled={off || submitting}
          deleting={deletion.deleting}
          services={services}
          onStatus={chooseStatus}
          onAdd={licences.add}
          onDeleteSaved={(file) => {
            const last = lastLicence();
            void deletion.remove(file, () => last && set({ driver_license_status: 1 }));
          }}
          onDeletePending={(key) => {
            if (lastLicence()) set({ driver_license_status: 1 });
            licences.remove(key);
          }}
        />
      ) : null}

      {options.licenceNote ? (
        <Alert.Root status="info">
          <Alert.Indicator />
          <Alert.Description>{t(options.licenceNote)}</Alert.Description>
        </Alert.Root>
      ) : null}

      {hasFileErrors ? (
        <Text role="alert" color="fg.error">
          {t('steps:documents.uploadError')}
        </Text>
      ) : null}
      {deletion.error ? (
        <Text role="alert" color="fg.error">
          {deletion.error}
        </Text>
      ) : null}
      {percent !== null ? <UploadProgress percent={percent} label={t('steps:documents.uploading', { percent })} /> : null}
    </Stack>
  );
}
