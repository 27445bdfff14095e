import { useEffect, useState, type ReactNode } from 'react';
import { Box, Button, HStack, Image, Stack, Text } from '@chakra-ui/react';
import { FieldErrors } from '../shared/FieldErrors';
import type { StepServices } from '../types';
import { extension, IMAGE_NAME, type Pending, type SavedFile } from './files';

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
  thumb: ReactNode;
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

export interface FileRowsProps {
  /** The list's accessible name. */
  label: string;
  saved: SavedFile[];
  pending: Pending[];
  /** `data-testid` of the rows: `<kind>` for saved files is `saved-<kind>`, for chosen ones `pending-<kind>`. */
  kind: 'file' | 'licence';
  /** Prefixes of the rows' error ids: `<saved>-<file id>`, `<pending>-<index>`. */
  errorIds: { saved: string; pending: string };
  /** The server's error for the chosen file at `index` (`files[i]`). */
  pendingError(index: number): string | undefined;
  /** The id of the saved file being deleted. */
  deleting: number | null;
  disabled: boolean;
  onDeleteSaved(file: SavedFile): void;
  onDeletePending(key: string): void;
  services: Pick<StepServices, 't' | 'identity'>;
}

/** Saved files, then the files chosen in this visit, each with a preview, its state, a delete action and its own error. */
export function FileRows({ label, saved, pending, kind, errorIds, pendingError, deleting, disabled, onDeleteSaved, onDeletePending, services }: FileRowsProps) {
  const { t } = services;
  if (saved.length + pending.length === 0) return null;
  return (
    <Stack as="ul" gap="2" aria-label={label} m="0" p="0">
      {saved.map((file) => (
        <FileRow
          key={`s${file.id}`}
          testId={`saved-${kind}`}
          name={file.name ?? t('steps:documents.documentIcon')}
          thumb={<SavedThumb file={file} preview={services.identity.preview} alt={file.name ?? ''} />}
          status={t('steps:documents.saved')}
          errorId={`${errorIds.saved}-${file.id}`}
          deleteLabel={t('steps:documents.deleteLabel', { name: file.name ?? '' })}
          deleteText={t('steps:documents.delete')}
          busy={deleting === file.id}
          disabled={disabled}
          onDelete={() => onDeleteSaved(file)}
        />
      ))}
      {pending.map((p, i) => (
        <FileRow
          key={p.key}
          testId={`pending-${kind}`}
          name={p.file.name}
          thumb={p.preview ? <Image src={p.preview} alt={p.file.name} boxSize="12" objectFit="cover" borderRadius="sm" /> : <DocIcon name={p.file.name} />}
          status={t('steps:documents.pending')}
          error={pendingError(i)}
          errorId={`${errorIds.pending}-${i}`}
          deleteLabel={t('steps:documents.deleteLabel', { name: p.file.name })}
          deleteText={t('steps:documents.delete')}
          disabled={disabled}
          onDelete={() => onDeletePending(p.key)}
        />
      ))}
    </Stack>
  );
}
