/** The operator's actions on a dossier: send documents, ask the applicant, finalize or reject. */
import { useId, useRef, useState, type FormEvent } from 'react';
import { Button, Dialog, Field, HStack, Input, Portal, Stack, Textarea } from '@chakra-ui/react';
import { isApiError } from '@/shared/api/client';
import { FlashAlert } from '@/shared/components/FlashAlert';
import { staffApi, type Dossier } from './api';
import type { ConsoleT } from './i18n';

function failure(error: unknown, t: ConsoleT): string {
  if (isApiError(error)) {
    const first = Object.values(error.fieldErrors)[0]?.[0];
    return first ?? (error.message || t('actions.failed'));
  }
  return t('actions.failed');
}

/**
 * An action's state on the dossier page: `busy` while it runs, and its failure in words (`failure`);
 * `run` clears the last error, runs the call, and keeps what went wrong for the form to show.
 */
function useAction(t: ConsoleT) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (e) {
      setError(failure(e, t));
    } finally {
      setBusy(false);
    }
  };
  return { error, setError, busy, run };
}

export function UploadForm({ id, t, onDone }: { id: number; t: ConsoleT; onDone: (message: string) => Promise<void> }) {
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const { error, setError, busy, run } = useAction(t);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const files = Array.from(input.current?.files ?? []);
    if (!files.length) return setError(t('actions.uploadNone'));
    await run(async () => {
      const { message } = await staffApi.attach(id, files);
      if (input.current) input.current.value = '';
      await onDone(message || t('actions.uploaded'));
    });
  };
  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <Stack gap="3">
        <Field.Root invalid={Boolean(error)}>
          <Field.Label htmlFor={inputId}>{t('actions.uploadLabel')}</Field.Label>
          <Input id={inputId} ref={input} type="file" multiple accept="application/pdf,image/*" p="1" aria-describedby={error ? `${inputId}-error` : undefined} />
          {error && <Field.ErrorText id={`${inputId}-error`}>{error}</Field.ErrorText>}
        </Field.Root>
        <Button type="submit" alignSelf="flex-start" disabled={busy}>
          {t('actions.uploadButton')}
        </Button>
      </Stack>
    </form>
  );
}

export function AskForm({ id, t, onDone }: { id: number; t: ConsoleT; onDone: (message: string) => Promise<void> }) {
  const inputId = useId();
  const [text, setText] = useState('');
  const { error, setError, busy, run } = useAction(t);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!text.trim()) return setError(t('actions.askEmpty'));
    await run(async () => {
      const { message } = await staffApi.askForDocuments(id, text.trim());
      setText('');
      await onDone(message || t('actions.asked'));
    });
  };
  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <Stack gap="3">
        <Field.Root invalid={Boolean(error)}>
          <Field.Label htmlFor={inputId}>{t('actions.askLabel')}</Field.Label>
          <Textarea id={inputId} value={text} onChange={(e) => setText(e.currentTarget.value)} rows={4} maxLength={2000} aria-describedby={`${inputId}-hint${error ? ` ${inputId}-error` : ''}`} />
          <Field.HelperText id={`${inputId}-hint`}>{t('actions.askHint')}</Field.HelperText>
          {error && <Field.ErrorText id={`${inputId}-error`}>{error}</Field.ErrorText>}
        </Field.Root>
        <Button type="submit" alignSelf="flex-start" disabled={busy}>
          {t('actions.askButton')}
        </Button>
      </Stack>
    </form>
  );
}

type Closing = 'finalize' | 'reject';

export function CloseActions({ dossier, t, onDone }: { dossier: Dossier; t: ConsoleT; onDone: (message: string) => Promise<void> }) {
  const [asking, setAsking] = useState<Closing | null>(null);
  const { error, setError, busy, run } = useAction(t);
  const closed = dossier.status === 'finalized' || dossier.status === 'rejected';
  const confirm = async () => {
    if (!asking) return;
    await run(async () => {
      const { message } = asking === 'finalize' ? await staffApi.finalize(dossier.id) : await staffApi.reject(dossier.id);
      setAsking(null);
      await onDone(message || t(asking === 'finalize' ? 'actions.finalized' : 'actions.rejected'));
    });
  };
  const titleKey = asking === 'reject' ? 'actions.confirmRejectTitle' : 'actions.confirmFinalizeTitle';
  const textKey = asking === 'reject' ? 'actions.confirmReject' : 'actions.confirmFinalize';
  return (
    <Stack gap="3">
      <HStack gap="3" flexWrap="wrap">
        <Button disabled={closed} onClick={() => setAsking('finalize')}>
          {t('actions.finalize')}
        </Button>
        <Button colorPalette="red" variant="outline" disabled={closed} onClick={() => setAsking('reject')}>
          {t('actions.reject')}
        </Button>
      </HStack>
      <Dialog.Root open={asking !== null} onOpenChange={(e) => !e.open && !busy && (setAsking(null), setError(null))} role="alertdialog" placement="center">
        <Portal>
          <Dialog.Backdrop />
          <Dialog.Positioner>
            <Dialog.Content>
              <Dialog.Header>
                <Dialog.Title>{t(titleKey)}</Dialog.Title>
              </Dialog.Header>
              <Dialog.Body>
                <Stack gap="3">
                  <Dialog.Description>{t(textKey, { id: dossier.id })}</Dialog.Description>
                  {error && <FlashAlert title={error} />}
                </Stack>
              </Dialog.Body>
              <Dialog.Footer flexWrap="wrap" gap="2">
                <Dialog.ActionTrigger asChild>
                  <Button variant="outline" disabled={busy}>
                    {t('actions.cancel')}
                  </Button>
                </Dialog.ActionTrigger>
                <Button colorPalette={asking === 'reject' ? 'red' : 'brand'} disabled={busy} onClick={() => void confirm()}>
                  {t('actions.confirm')}
                </Button>
              </Dialog.Footer>
            </Dialog.Content>
          </Dialog.Positioner>
        </Portal>
      </Dialog.Root>
    </Stack>
  );
}

/** /staff/dossiers/:id: everything about one dossier, the operator's actions on it and its audit log. */
