import { useState } from 'react';
import { Box, Button, Text } from '@chakra-ui/react';
import { api, isApiError } from '@/shared/api/client';
import { useConfig } from '@/shared/api/hooks';
import { browser } from '@/shared/browser';
import { FlashAlert } from '@/shared/components/FlashAlert';
import { quantity, type PrivacyT } from './i18n';
import { Section } from './Section';

export const EXPORT_PATH = '/user/export';

/**
 * "Descarcă datele tale" (issue 32, GDPR art. 15 and 20): `GET /api/user/export`, a zip the API serves
 * to the token's user only, so fetched with the token and saved from a blob (`browser.save`) under the
 * name the server gives. Too many exports in an hour (429): the server's own message.
 */
export function ExportSection({ perHour, t }: { perHour: number; t: PrivacyT }) {
  const { config } = useConfig();
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ status: 'success' | 'error'; text: string } | null>(null);

  async function download() {
    setBusy(true);
    setNotice(null);
    try {
      const file = await api.fetchFile(EXPORT_PATH);
      browser.save(file.blob, file.name ?? `date-${config.product_slug}.zip`);
      setNotice({ status: 'success', text: t('export.done') });
    } catch (error) {
      // The server's reason when it refused (429: too many exports this hour), else ours.
      setNotice({ status: 'error', text: isApiError(error) && error.status !== 0 && error.message ? error.message : t('export.error') });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Section title={t('export.title')} testId="privacy-export">
      <Text>{t('export.text')}</Text>
      <Text color="fg.muted" fontSize="sm">
        {t('export.limit', { times: quantity(t, 'times', perHour) })}
      </Text>
      <Box>
        <Button onClick={() => void download()} loading={busy} loadingText={t('export.submit')} whiteSpace="normal" h="auto" minH="10" py="2">
          {t('export.submit')}
        </Button>
      </Box>
      {notice && <FlashAlert status={notice.status}>{notice.text}</FlashAlert>}
    </Section>
  );
}
