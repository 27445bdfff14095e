import { useRef } from 'react';
import { Box, Button, HStack, Image, Progress, Spinner, Stack, Text } from '@chakra-ui/react';
import type { IdentityContext } from '../types';

export interface UploadState {
  uploading: boolean;
  completed: boolean;
  hasError: boolean;
  /** 0..1 while uploading. */
  progress: number;
  /** Object URL of the photo, once known. */
  preview: string | null;
}

export const EMPTY_UPLOAD: UploadState = { uploading: false, completed: false, hasError: false, progress: 0, preview: null };

/** Desktop file chooser: the spec's list (jpeg, jpg, png, heif, heic, webp). */
const DESKTOP_ACCEPT = '.jpeg,.jpg,.png,.heif,.heic,.webp,image/jpeg,image/png,image/heif,image/heic,image/webp';

export interface UploadSlotProps {
  context: IdentityContext;
  /** 1, 2 or 3: the order of the uploads. */
  position: number;
  label: string;
  state: UploadState;
  disabled: boolean;
  /** Phone: camera capture (rear for documents, front for the selfie) instead of a file chooser. */
  mobile: boolean;
  t(key: string, vars?: Record<string, unknown>): string;
  onFile(file: File): void;
}

function Tick() {
  return (
    <svg width="20" height="20" viewBox="0 0 20 20" aria-hidden="true" focusable="false">
      <circle cx="10" cy="10" r="10" fill="currentColor" />
      <path d="M5.5 10.5l3 3 6-7" stroke="white" strokeWidth="2" fill="none" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

/** One of the three ordered uploads: a spinner and a progress bar while uploading, a tick when done. */
export function UploadSlot({ context, position, label, state, disabled, mobile, t, onFile }: UploadSlotProps) {
  const input = useRef<HTMLInputElement>(null);
  const inputId = `identity-upload-${context}`;
  const statusId = `${inputId}-status`;
  const percent = Math.round(state.progress * 100);
  const action = mobile
    ? t(state.completed ? 'steps:identity.retake' : 'steps:identity.take')
    : t(state.completed ? 'steps:identity.replace' : 'steps:identity.choose');

  return (
    <Stack
      gap="3"
      p="4"
      borderWidth="1px"
      borderRadius="md"
      borderColor={state.completed ? 'green.500' : state.hasError ? 'red.500' : 'border'}
      data-testid={`identity-slot-${context}`}
      data-state={state.uploading ? 'uploading' : state.completed ? 'completed' : state.hasError ? 'error' : 'empty'}
    >
      <HStack justify="space-between" gap="3">
        <Text fontWeight="semibold">
          {position}. {label}
        </Text>
        <Box color={state.completed ? 'fg.success' : 'fg.muted'} id={statusId} aria-live="polite">
          {state.uploading ? (
            <Spinner size="sm" aria-label={t('steps:identity.uploading', { label, percent })} />
          ) : state.completed ? (
            <HStack gap="1">
              <Tick />
              <Text fontSize="sm">{t('steps:identity.uploaded')}</Text>
            </HStack>
          ) : null}
        </Box>
      </HStack>
      {state.preview ? (
        <Image src={state.preview} alt={t('steps:identity.previewAlt', { label })} maxH="40" objectFit="contain" borderRadius="sm" />
      ) : null}
      {state.uploading ? (
        <Progress.Root value={percent} size="sm" aria-label={t('steps:identity.uploading', { label, percent })}>
          <Progress.Track>
            <Progress.Range />
          </Progress.Track>
        </Progress.Root>
      ) : null}
      <input
        ref={input}
        id={inputId}
        name={context}
        type="file"
        hidden
        accept={mobile ? 'image/*' : DESKTOP_ACCEPT}
        capture={mobile ? (context === 'face' ? 'user' : 'environment') : undefined}
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file) onFile(file);
        }}
      />
      <Button
        variant={state.completed ? 'outline' : 'solid'}
        colorPalette="blue"
        disabled={disabled}
        aria-describedby={statusId}
        onClick={() => input.current?.click()}
      >
        {action}: {label.toLowerCase()}
      </Button>
    </Stack>
  );
}
