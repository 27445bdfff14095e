import { useRef, useState, type FormEvent } from 'react';
import { Box, Button, Heading, Spinner, Stack, Text } from '@chakra-ui/react';
import type { KeptAfterErasure } from '@/core/api-types';
import { api } from '@/shared/api/client';
import { signOutLocally } from '@/shared/auth-actions';
import { FormField } from '@/shared/components/FormField';
import { FlashAlert } from '@/shared/components/FlashAlert';
import { PasswordInput } from '@/shared/components/PasswordInput';
import { useServerErrors } from '@/shared/forms';
import { formatCalendarDay, type PrivacyT } from './i18n';
import { Item, Section } from './Section';

export const ERASE_PATH = '/user';
const FIELDS = ['password'] as const;

/** What stays after the erasure, and why (`after_erasure`): the law's reasons, per kind, from the locale file. */
function KeptList({ kept, t, language }: { kept: KeptAfterErasure[]; t: PrivacyT; language: string }) {
  if (!kept.length) return <Text>{t('erase.nothingKept')}</Text>;
  return (
    <>
      <Text>{t('erase.keptIntro')}</Text>
      <Stack as="ul" gap="3" listStyleType="none" ps="0">
        {kept.map((record) => (
          <Item key={record.kind} level="h4" title={t(`erase.kept.${record.kind}.title`, { n: record.count })} testId={`kept-${record.kind}`}>
            <Text>{t(`erase.kept.${record.kind}.why`)}</Text>
            {record.keep_until && <Text>{t('erase.until', { date: formatCalendarDay(record.keep_until, language) })}</Text>}
          </Item>
        ))}
      </Stack>
    </>
  );
}

/**
 * "Șterge contul" (issue 32, GDPR art. 17): what goes, what the law keeps (listed before the applicant
 * confirms), then the password typed again and `DELETE /api/user`. A wrong password (422) shows under
 * the field; once erased, the session is forgotten here (`signOutLocally`, as logout does) and the page
 * says so (`onErased`, with the server's message).
 */
export function EraseSection({ kept, onErased, t, language }: { kept: KeptAfterErasure[]; onErased: (message: string) => void; t: PrivacyT; language: string }) {
  const formRef = useRef<HTMLFormElement>(null);
  const errors = useServerErrors(FIELDS, t, formRef);
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    errors.reset();
    try {
      const { message } = await api.request<null>(ERASE_PATH, { method: 'DELETE', body: { password } });
      // The token is revoked with the account: forget it and everything stored, as logout does.
      signOutLocally();
      onErased(message || t('erase.done'));
    } catch (error) {
      errors.fail(error);
      setBusy(false);
    }
  }

  const passwordError = errors.error('password');
  return (
    <Section title={t('erase.title')} testId="privacy-erase">
      <Text>{t('erase.text')}</Text>
      <Stack gap="2" data-testid="privacy-after-erasure">
        <Heading as="h3" size="md">
          {t('erase.keptTitle')}
        </Heading>
        <KeptList kept={kept} t={t} language={language} />
      </Stack>
      <form ref={formRef} method="post" onSubmit={onSubmit} noValidate aria-busy={busy}>
        <Stack gap="4">
          {/* A field's own error shows under it; the server's general message only without one (429, network). */}
          {errors.flash && !passwordError && <FlashAlert>{errors.flash}</FlashAlert>}
          <FormField label={t('erase.password')} error={passwordError} hint={t('erase.passwordHint')}>
            <PasswordInput
              name="password"
              autoComplete="current-password"
              value={password}
              onChange={(e) => {
                setPassword(e.target.value);
                errors.clearField('password');
              }}
            />
          </FormField>
          <Box>
            <Button type="submit" colorPalette="red" disabled={busy} whiteSpace="normal" h="auto" minH="10" py="2">
              {busy && <Spinner size="sm" aria-hidden="true" />}
              {t('erase.submit')}
            </Button>
          </Box>
        </Stack>
      </form>
    </Section>
  );
}
