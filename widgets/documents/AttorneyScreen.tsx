import { useId } from 'react';
import { Button, Heading, Progress, Stack, Text } from '@chakra-ui/react';
import type { StepServices } from '../types';

/** The multipart submit's progress ("Se încarcă… 40%"). */
export function UploadProgress({ percent, label }: { percent: number; label: string }) {
  return (
    <Progress.Root value={percent} max={100} aria-label={label} colorPalette="blue">
      <Progress.Label>{label}</Progress.Label>
      <Progress.Track>
        <Progress.Range />
      </Progress.Track>
    </Progress.Root>
  );
}

/** The power-of-attorney screen shown on the first press of "next" (spec 001 §4 "Documents step"). */
export function AttorneyScreen({ t, percent, submitting, onBack }: { t: StepServices['t']; percent: number | null; submitting: boolean; onBack(): void }) {
  const id = useId();
  return (
    <Stack gap="4" data-testid="attorney-screen" role="region" aria-labelledby={`${id}-attorney`}>
      <Heading as="h2" size="lg" id={`${id}-attorney`}>
        {t('steps:documents.attorney.title')}
      </Heading>
      <Text>{t('steps:documents.attorney.cost')}</Text>
      <Text>{t('steps:documents.attorney.email')}</Text>
      <Text>{t('steps:documents.attorney.after')}</Text>
      <Text fontWeight="semibold">{t('steps:documents.attorney.continue')}</Text>
      {percent !== null ? <UploadProgress percent={percent} label={t('steps:documents.uploading', { percent })} /> : null}
      <Button variant="outline" alignSelf={{ md: 'flex-start' }} onClick={onBack} disabled={submitting}>
        {t('steps:documents.attorney.back')}
      </Button>
    </Stack>
  );
}
