import { useEffect, useId, useRef, useState } from 'react';
import { Alert, Box, Button, Fieldset, Heading, HStack, Image, Progress, RadioGroup, Stack, Text } from '@chakra-ui/react';
import type { FieldProps } from '@rjsf/utils';
import { FieldErrors } from '../shared/FieldErrors';
import { stepContext, type MediaFile, type StepFormContext } from '../types';

/**
 * Form data of the documents step (schemas/documents.json). `send_diploma_later` and
 * `driver_license_status` are sent; the other keys only drive the browser's "next":
 * `diplomas_ready` (send later, or a diploma saved or chosen) and `licence_ready` (no licence
 * block, or it is answered, with a file for "upload now") must be true, and the chosen files'
 * names under `files` / `driverLicenseFiles` change with them (which clears their server errors).
 */
export interface DocumentsData {
  send_diploma_later?: boolean;
  driver_license_status?: 0 | 1 | 2 | null;
  diplomas_ready?: boolean;
  licence_ready?: boolean;
  files?: string[];
  driverLicenseFiles?: string[];
}

type Licence = 'courier' | 'taxi' | 'credit-certificate' | null;

interface DocumentsOptions {
  /** Locale keys of the block's heading and text (the activity's variant changes them). */
  heading?: string;
  text?: string;
  licence?: Licence;
  /** The licence answer fixed by the flow (the credit partner: 1): no licence block. */
  licenceStatus?: 0 | 1 | 2;
  /** Whether "no licence" (0) is offered (the courier activity). */
  noLicenceChoice?: boolean;
  /** Locale key of a note shown instead of the block (a credit consultant under the credit partner). */
  licenceNote?: string;
}

/**
 * What the file chooser offers (spec 001 §5): images, HEIC, PDF, DOC, DOCX — exactly what the server
 * accepts by content (server/lib/image-type.ts: JPEG, PNG, WebP, HEIC/HEIF), so a GIF or BMP is not
 * offered only to be refused after the upload.
 */
export const DOCUMENT_ACCEPT = [
  'image/jpeg,image/png,image/webp,image/heic,image/heif',
  '.jpg,.jpeg,.png,.webp,.heic,.heif',
  '.pdf,application/pdf',
  '.doc,application/msword',
  '.docx,application/vnd.openxmlformats-officedocument.wordprocessingml.document',
].join(',');

const IMAGE_NAME = /\.(jpe?g|png|webp|gif)$/i;

interface Pending {
  key: string;
  file: File;
  /** Object URL of an image the browser can show, else null (a document icon instead). */
  preview: string | null;
}

type SavedFile = MediaFile & { name?: string };

function savedList(media: StepFormContext['media'] | undefined, key: string): SavedFile[] {
  const list = media?.[key];
  return Array.isArray(list) ? (list as SavedFile[]) : [];
}

let counter = 0;
function toPending(file: File): Pending {
  counter += 1;
  const showable = file.type.startsWith('image/') && !/hei[cf]/i.test(file.type) && typeof URL.createObjectURL === 'function';
  return { key: `p${counter}`, file, preview: showable ? URL.createObjectURL(file) : null };
}

function release(list: Pending[]) {
  for (const p of list) if (p.preview && typeof URL.revokeObjectURL === 'function') URL.revokeObjectURL(p.preview);
}

function extension(name: string): string {
  const match = /\.([a-z0-9]{1,5})$/i.exec(name);
  return match ? match[1].toUpperCase() : 'DOC';
}

/** The thumbnail of a saved image: an owner-only file, fetched with the token (`identity.preview`). */
function SavedThumb({ file, preview, alt }: { file: SavedFile; preview: (url: string) => Promise<string>; alt: string }) {
  const [src, setSrc] = useState<string | null>(null);
  const image = IMAGE_NAME.test(file.name ?? '');
  useEffect(() => {
    if (!image) return;
    let live = true;
    let url: string | null = null;
    preview(file.url).then(
      (u) => {
        url = u;
        if (live) setSrc(u);
      },
      () => undefined,
    );
    return () => {
      live = false;
      if (url?.startsWith('blob:') && typeof URL.revokeObjectURL === 'function') URL.revokeObjectURL(url);
    };
  }, [file.url, image, preview]);
  return src ? <Image src={src} alt={alt} boxSize="12" objectFit="cover" borderRadius="sm" /> : <DocIcon name={file.name ?? ''} />;
}

function DocIcon({ name }: { name: string }) {
  return (
    <Box
      aria-hidden="true"
      boxSize="12"
      flexShrink={0}
      borderWidth="1px"
      borderRadius="sm"
      display="flex"
      alignItems="center"
      justifyContent="center"
      fontSize="xs"
      fontWeight="bold"
      color="blue.700"
      bg="blue.50"
    >
      {extension(name)}
    </Box>
  );
}

interface RowProps {
  name: string;
  thumb: React.ReactNode;
  status: string;
  error?: string;
  errorId: string;
  deleteLabel: string;
  deleteText: string;
  busy?: boolean;
  disabled?: boolean;
  onDelete(): void;
  testId: string;
}

function FileRow({ name, thumb, status, error, errorId, deleteLabel, deleteText, busy, disabled, onDelete, testId }: RowProps) {
  return (
    <Box as="li" listStyleType="none" borderWidth="1px" borderRadius="md" p="3" borderColor={error ? 'border.error' : undefined} data-testid={testId}>
      <HStack gap="3" align="center">
        {thumb}
        <Stack gap="0" flex="1" minW="0">
          <Text fontWeight="medium" truncate>
            {name}
          </Text>
          <Text fontSize="sm" color="fg.muted">
            {status}
          </Text>
        </Stack>
        <Button size="sm" variant="outline" colorPalette="red" aria-label={deleteLabel} onClick={onDelete} loading={busy} disabled={disabled || busy}>
          {deleteText}
        </Button>
      </HStack>
      <FieldErrors id={errorId} errors={error ? [error] : undefined} />
    </Box>
  );
}

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
  const { services, media, reloadRequest, attachFile, setSubmitGuard, uploadProgress, submitting } = context;
  const { t } = services;
  const options = (uiSchema?.['ui:options'] ?? {}) as DocumentsOptions;
  const licence: Licence = options.licence ?? null;
  const fixedStatus = options.licenceStatus ?? null;
  const licenceBlock = licence !== null && fixedStatus === null;
  const off = Boolean(disabled || readonly);
  const ids = useId();

  const savedDiplomas = savedList(media, 'diploma_documents');
  const savedLicences = savedList(media, 'driver_license');
  const [pending, setPending] = useState<Pending[]>([]);
  const [pendingLicences, setPendingLicences] = useState<Pending[]>([]);
  const [deleting, setDeleting] = useState<number | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const [attorney, setAttorney] = useState(false);
  const phase = useRef<'form' | 'shown' | 'submitting'>('form');
  const live = useRef(true);
  const diplomaInput = useRef<HTMLInputElement | null>(null);
  const licenceInput = useRef<HTMLInputElement | null>(null);

  const later = formData?.send_diploma_later === true;
  const stored = formData?.driver_license_status;
  const status: 0 | 1 | 2 | null = fixedStatus !== null ? fixedStatus : licenceBlock ? (stored === 0 || stored === 1 || stored === 2 ? stored : null) : null;

  // The engine's context changes with every render of the runner: keep the latest callbacks.
  const attachRef = useRef(attachFile);
  const onChangeRef = useRef(onChange);
  useEffect(() => {
    attachRef.current = attachFile;
    onChangeRef.current = onChange;
  }, [attachFile, onChange]);

  useEffect(() => {
    live.current = true;
    return () => {
      live.current = false;
    };
  }, []);

  // Chosen files are attached under files[i] / driverLicenseFiles[i]; keys no longer used are taken back.
  const attached = useRef({ files: 0, driverLicenseFiles: 0 });
  useEffect(() => {
    const sync = (field: 'files' | 'driverLicenseFiles', list: Pending[]) => {
      list.forEach((p, i) => attachRef.current(`${field}[${i}]`, p.file, p.file.name));
      for (let i = list.length; i < attached.current[field]; i += 1) attachRef.current(`${field}[${i}]`, null);
      attached.current[field] = list.length;
    };
    sync('files', later ? [] : pending);
    sync('driverLicenseFiles', status === 2 ? pendingLicences : []);
  }, [pending, pendingLicences, later, status]);

  // Object URLs and attachments go with the step.
  const pendingRef = useRef<Pending[]>([]);
  useEffect(() => {
    pendingRef.current = [...pending, ...pendingLicences];
  }, [pending, pendingLicences]);
  useEffect(
    () => () => {
      release(pendingRef.current);
      for (const field of ['files', 'driverLicenseFiles'] as const) {
        for (let i = 0; i < attached.current[field]; i += 1) attachRef.current(`${field}[${i}]`, null);
      }
    },
    [],
  );

  // The form's value follows the choices; the engine's "next" follows the value (schemas/documents.json).
  const savedDiplomaCount = savedDiplomas.length;
  const savedLicenceCount = savedLicences.length;
  const wanted: DocumentsData = {
    send_diploma_later: later,
    driver_license_status: status,
    diplomas_ready: later || savedDiplomaCount + pending.length > 0,
    licence_ready: !licenceBlock || status === 0 || status === 1 || (status === 2 && savedLicenceCount + pendingLicences.length > 0),
    files: later ? [] : pending.map((p) => p.file.name),
    driverLicenseFiles: status === 2 ? pendingLicences.map((p) => p.file.name) : [],
  };
  const wantedJson = JSON.stringify(wanted);
  const currentJson = JSON.stringify(
    Object.fromEntries(Object.keys(wanted).map((k) => [k, (formData as Record<string, unknown> | undefined)?.[k] ?? (k === 'driver_license_status' ? null : undefined)])),
  );
  useEffect(() => {
    if (wantedJson !== currentJson) onChangeRef.current({ ...(formData ?? {}), ...JSON.parse(wantedJson) } as DocumentsData, fieldPathId.path);
  }, [wantedJson, currentJson, formData, fieldPathId.path]);

  function set(changes: Partial<DocumentsData>) {
    onChangeRef.current({ ...(formData ?? {}), ...wanted, ...changes } as DocumentsData, fieldPathId.path);
  }

  // First press of "next": the power-of-attorney screen (and the acknowledgement); second press: submit.
  useEffect(() => {
    setSubmitGuard(async () => {
      if (phase.current === 'form') {
        phase.current = 'shown';
        setAttorney(true);
        try {
          await services.dossier.acknowledgeAttorney?.();
        } catch {
          // Seeing the screen is what matters; the record is tried again on the next first press.
        }
        return false;
      }
      phase.current = 'submitting';
      return true;
    });
    return () => setSubmitGuard(null);
  }, [setSubmitGuard, services.dossier]);

  // A submit that did not leave the step (server errors): back to the form.
  const wasSubmitting = useRef(submitting);
  useEffect(() => {
    if (wasSubmitting.current && !submitting && phase.current === 'submitting') {
      phase.current = 'form';
      setAttorney(false);
    }
    wasSubmitting.current = submitting;
  }, [submitting]);

  function backToForm() {
    phase.current = 'form';
    setAttorney(false);
  }

  function addFiles(list: FileList | null, kind: 'diploma' | 'licence') {
    const chosen = Array.from(list ?? []);
    if (!chosen.length) return;
    const added = chosen.map(toPending);
    if (kind === 'diploma') {
      setPending((current) => [...current, ...added]);
      // Choosing upload clears the send-later flag (spec §4 "Diploma").
      if (later) set({ send_diploma_later: false });
    } else {
      setPendingLicences((current) => [...current, ...added]);
    }
  }

  function removePending(kind: 'diploma' | 'licence', key: string) {
    const update = kind === 'diploma' ? setPending : setPendingLicences;
    update((current) => {
      release(current.filter((p) => p.key === key));
      return current.filter((p) => p.key !== key);
    });
    // Removing the last licence file goes back to "send later" (spec §4).
    if (kind === 'licence' && status === 2 && savedLicences.length + pendingLicences.length === 1) set({ driver_license_status: 1 });
  }

  async function removeSaved(kind: 'diploma' | 'licence', file: SavedFile) {
    if (deleting !== null) return;
    setDeleting(file.id);
    setDeleteError(null);
    try {
      if (!services.dossier.deleteDocument) throw new Error('no delete service');
      await services.dossier.deleteDocument(file.id);
      if (kind === 'licence' && status === 2 && savedLicences.length + pendingLicences.length === 1 && live.current) set({ driver_license_status: 1 });
      await reloadRequest();
    } catch {
      if (live.current) setDeleteError(t('steps:documents.deleteError'));
    } finally {
      if (live.current) setDeleting(null);
    }
  }

  function chooseLater() {
    // Choosing send-later clears the chosen files (saved ones are removed when the step is sent).
    release(pending);
    setPending([]);
    set({ send_diploma_later: !later });
  }

  function chooseStatus(value: 0 | 1 | 2) {
    if (value !== 2) {
      release(pendingLicences);
      setPendingLicences([]);
    }
    set({ driver_license_status: value });
  }

  const errors = (errorSchema ?? {}) as Record<string, { __errors?: string[] } & Record<string, { __errors?: string[] }>>;
  const fileError = (field: 'files' | 'driverLicenseFiles', i: number) => errors[field]?.[String(i)]?.__errors?.[0];
  const hasFileErrors = ['files', 'driverLicenseFiles'].some((field) => Object.keys(errors[field] ?? {}).some((k) => /^\d+$/.test(k)));
  const percent = uploadProgress === null ? null : Math.round(uploadProgress * 100);

  if (attorney) {
    return (
      <Stack gap="4" data-testid="attorney-screen" role="region" aria-labelledby={`${ids}-attorney`}>
        <Heading as="h2" size="lg" id={`${ids}-attorney`}>
          {t('steps:documents.attorney.title')}
        </Heading>
        <Text>{t('steps:documents.attorney.cost')}</Text>
        <Text>{t('steps:documents.attorney.email')}</Text>
        <Text>{t('steps:documents.attorney.after')}</Text>
        <Text fontWeight="semibold">{t('steps:documents.attorney.continue')}</Text>
        {percent !== null ? <UploadProgress percent={percent} label={t('steps:documents.uploading', { percent })} /> : null}
        <Button variant="outline" alignSelf={{ md: 'flex-start' }} onClick={backToForm} disabled={submitting}>
          {t('steps:documents.attorney.back')}
        </Button>
      </Stack>
    );
  }

  const diplomaRows = later ? [] : pending;
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
            addFiles(e.currentTarget.files, 'diploma');
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
        {savedDiplomas.length + diplomaRows.length > 0 ? (
          <Stack as="ul" gap="2" aria-label={t('steps:documents.filesLabel')} m="0" p="0">
            {savedDiplomas.map((file) => (
              <FileRow
                key={`s${file.id}`}
                testId="saved-file"
                name={file.name ?? t('steps:documents.documentIcon')}
                thumb={<SavedThumb file={file} preview={services.identity.preview} alt={file.name ?? ''} />}
                status={t('steps:documents.saved')}
                errorId={`${ids}-saved-${file.id}`}
                deleteLabel={t('steps:documents.deleteLabel', { name: file.name ?? '' })}
                deleteText={t('steps:documents.delete')}
                busy={deleting === file.id}
                disabled={off || submitting}
                onDelete={() => void removeSaved('diploma', file)}
              />
            ))}
            {diplomaRows.map((p, i) => (
              <FileRow
                key={p.key}
                testId="pending-file"
                name={p.file.name}
                thumb={p.preview ? <Image src={p.preview} alt={p.file.name} boxSize="12" objectFit="cover" borderRadius="sm" /> : <DocIcon name={p.file.name} />}
                status={t('steps:documents.pending')}
                error={fileError('files', i)}
                errorId={`${ids}-file-${i}`}
                deleteLabel={t('steps:documents.deleteLabel', { name: p.file.name })}
                deleteText={t('steps:documents.delete')}
                disabled={off || submitting}
                onDelete={() => removePending('diploma', p.key)}
              />
            ))}
          </Stack>
        ) : null}
        <FieldErrors id={`${ids}-files-error`} errors={errors.files?.__errors} />
      </Stack>

      {licenceBlock ? (
        <Fieldset.Root invalid={Boolean(errors.driver_license_status?.__errors?.length || errors.driverLicenseFiles?.__errors?.length)}>
          <Fieldset.Legend>
            <Heading as="h2" size="md">
              {t(`steps:documents.licence.${licence === 'credit-certificate' ? 'credit' : licence}Heading`)}
            </Heading>
          </Fieldset.Legend>
          <Text mt="2">{t(`steps:documents.licence.${licence === 'credit-certificate' ? 'credit' : licence}Text`)}</Text>
          <RadioGroup.Root
            value={status === null ? null : String(status)}
            onValueChange={(e) => e.value !== null && chooseStatus(Number(e.value) as 0 | 1 | 2)}
            name={`${fieldPathId.$id}_licence`}
            disabled={off}
            mt="3"
          >
            <Stack gap="3">
              {([2, 1, ...(options.noLicenceChoice ? [0] : [])] as const).map((value) => (
                <RadioGroup.Item key={value} value={String(value)}>
                  <RadioGroup.ItemHiddenInput />
                  <RadioGroup.ItemIndicator />
                  <RadioGroup.ItemText>{t(`steps:documents.licence.${value === 2 ? 'upload' : value === 1 ? 'later' : 'none'}`)}</RadioGroup.ItemText>
                </RadioGroup.Item>
              ))}
            </Stack>
          </RadioGroup.Root>
          <FieldErrors id={`${ids}-status-error`} errors={errors.driver_license_status?.__errors} />
          {status === 2 ? (
            <Stack gap="3" mt="3">
              <input
                ref={licenceInput}
                type="file"
                multiple
                accept={DOCUMENT_ACCEPT}
                hidden
                data-testid="licence-input"
                onChange={(e) => {
                  addFiles(e.currentTarget.files, 'licence');
                  e.currentTarget.value = '';
                }}
              />
              <Button colorPalette="blue" alignSelf={{ md: 'flex-start' }} onClick={() => licenceInput.current?.click()} disabled={off} width={{ base: 'full', md: 'auto' }}>
                {t('steps:documents.licence.uploadButton')}
              </Button>
              {savedLicences.length + pendingLicences.length > 0 ? (
                <Stack as="ul" gap="2" aria-label={t(`steps:documents.licence.${licence === 'credit-certificate' ? 'credit' : licence}Heading`)} m="0" p="0">
                  {savedLicences.map((file) => (
                    <FileRow
                      key={`s${file.id}`}
                      testId="saved-licence"
                      name={file.name ?? t('steps:documents.documentIcon')}
                      thumb={<SavedThumb file={file} preview={services.identity.preview} alt={file.name ?? ''} />}
                      status={t('steps:documents.saved')}
                      errorId={`${ids}-saved-licence-${file.id}`}
                      deleteLabel={t('steps:documents.deleteLabel', { name: file.name ?? '' })}
                      deleteText={t('steps:documents.delete')}
                      busy={deleting === file.id}
                      disabled={off || submitting}
                      onDelete={() => void removeSaved('licence', file)}
                    />
                  ))}
                  {pendingLicences.map((p, i) => (
                    <FileRow
                      key={p.key}
                      testId="pending-licence"
                      name={p.file.name}
                      thumb={p.preview ? <Image src={p.preview} alt={p.file.name} boxSize="12" objectFit="cover" borderRadius="sm" /> : <DocIcon name={p.file.name} />}
                      status={t('steps:documents.pending')}
                      error={fileError('driverLicenseFiles', i)}
                      errorId={`${ids}-licence-${i}`}
                      deleteLabel={t('steps:documents.deleteLabel', { name: p.file.name })}
                      deleteText={t('steps:documents.delete')}
                      disabled={off || submitting}
                      onDelete={() => removePending('licence', p.key)}
                    />
                  ))}
                </Stack>
              ) : null}
              <FieldErrors id={`${ids}-licence-files-error`} errors={errors.driverLicenseFiles?.__errors} />
            </Stack>
          ) : null}
        </Fieldset.Root>
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
      {deleteError ? (
        <Text role="alert" color="fg.error">
          {deleteError}
        </Text>
      ) : null}
      {percent !== null ? <UploadProgress percent={percent} label={t('steps:documents.uploading', { percent })} /> : null}
    </Stack>
  );
}

function UploadProgress({ percent, label }: { percent: number; label: string }) {
  return (
    <Progress.Root value={percent} max={100} aria-label={label} colorPalette="blue">
      <Progress.Label>{label}</Progress.Label>
      <Progress.Track>
        <Progress.Range />
      </Progress.Track>
    </Progress.Root>
  );
}
