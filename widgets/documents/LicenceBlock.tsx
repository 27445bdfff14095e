import { useRef } from 'react';
import { Button, Fieldset, Heading, RadioGroup, Stack, Text } from '@chakra-ui/react';
import { FieldErrors } from '../shared/FieldErrors';
import type { StepServices } from '../types';
import { DOCUMENT_ACCEPT, type Pending, type SavedFile } from './files';
import { FileRows } from './FileRows';
import { licenceChoices, licenceCopy, type Licence, type LicenceStatus } from './documents-rules';

export interface LicenceBlockProps {
  licence: Exclude<Licence, null>;
  /** "No licence" (0) offered (the flow's `noLicenceChoice`: couriers). */
  noLicenceChoice: boolean;
  status: LicenceStatus | null;
  saved: SavedFile[];
  pending: Pending[];
  /** Errors of `driver_license_status` and of `driverLicenseFiles` (the list's own, and per file). */
  statusErrors?: string[];
  filesErrors?: string[];
  fileError(index: number): string | undefined;
  name: string;
  /** A base for the block's element ids. */
  ids: string;
  off: boolean;
  rowsDisabled: boolean;
  deleting: number | null;
  services: Pick<StepServices, 't' | 'identity'>;
  onStatus(value: LicenceStatus): void;
  onAdd(files: File[]): void;
  onDeleteSaved(file: SavedFile): void;
  onDeletePending(key: string): void;
}

/** The driving licence / ARR attestation / credit-consultant certificate: upload now (2), send later (1), no licence (0, couriers). */
export function LicenceBlock(props: LicenceBlockProps) {
  const { licence, noLicenceChoice, status, saved, pending, statusErrors, filesErrors, fileError, name, ids, off, rowsDisabled, deleting, services, onStatus, onAdd } = props;
  const { t } = services;
  const input = useRef<HTMLInputElement | null>(null);
  const copy = licenceCopy(licence);
  return (
    <Fieldset.Root invalid={Boolean(statusErrors?.length || filesErrors?.length)}>
      <Fieldset.Legend>
        <Heading as="h2" size="md">
          {t(`steps:documents.licence.${copy}Heading`)}
        </Heading>
      </Fieldset.Legend>
      <Text mt="2">{t(`steps:documents.licence.${copy}Text`)}</Text>
      <RadioGroup.Root
        value={status === null ? null : String(status)}
        onValueChange={(e) => e.value !== null && onStatus(Number(e.value) as LicenceStatus)}
        name={name}
        disabled={off}
        mt="3"
      >
        <Stack gap="3">
          {licenceChoices({ noLicenceChoice }).map((value) => (
            <RadioGroup.Item key={value} value={String(value)}>
              <RadioGroup.ItemHiddenInput />
              <RadioGroup.ItemIndicator />
              <RadioGroup.ItemText>{t(`steps:documents.licence.${value === 2 ? 'upload' : value === 1 ? 'later' : 'none'}`)}</RadioGroup.ItemText>
            </RadioGroup.Item>
          ))}
        </Stack>
      </RadioGroup.Root>
      <FieldErrors id={`${ids}-status-error`} errors={statusErrors} />
      {status === 2 ? (
        <Stack gap="3" mt="3">
          <input
            ref={input}
            type="file"
            multiple
            accept={DOCUMENT_ACCEPT}
            hidden
            data-testid="licence-input"
            onChange={(e) => {
              const chosen = Array.from(e.currentTarget.files ?? []);
              if (chosen.length) onAdd(chosen);
              e.currentTarget.value = '';
            }}
          />
          <Button colorPalette="blue" alignSelf={{ md: 'flex-start' }} onClick={() => input.current?.click()} disabled={off} width={{ base: 'full', md: 'auto' }}>
            {t('steps:documents.licence.uploadButton')}
          </Button>
          <FileRows
            label={t(`steps:documents.licence.${copy}Heading`)}
            saved={saved}
            pending={pending}
            kind="licence"
            errorIds={{ saved: `${ids}-saved-licence`, pending: `${ids}-licence` }}
            pendingError={fileError}
            deleting={deleting}
            disabled={rowsDisabled}
            onDeleteSaved={props.onDeleteSaved}
            onDeletePending={props.onDeletePending}
            services={services}
          />
          <FieldErrors id={`${ids}-licence-files-error`} errors={filesErrors} />
        </Stack>
      ) : null}
    </Fieldset.Root>
  );
}
