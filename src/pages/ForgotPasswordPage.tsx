import { useRef, useState, type FormEvent } from 'react';
import { Button, Field, Heading, Spinner, Stack, Text } from '@chakra-ui/react';
import { api } from '../api/client';
import { STATIC_ROUTES } from '../core/routes';
import { TextInput } from '../app/components/TextInput';
import { AppLink } from '../app/components/AppLink';
import { FlashAlert } from '../app/components/FlashAlert';
import { PageLayout } from '../app/components/PageLayout';
import { useServerErrors } from '../app/forms';
import { usePageTitle, useT } from '../app/useT';

const FIELDS = ['email'] as const;

/** /password/forgot (spec 000 §2.3): e-mail, 'Trimite', then the server's message and a link back to login. */
export function ForgotPasswordPage() {
  const t = useT('auth');
  usePageTitle(t('forgot.pageTitle'));
  const formRef = useRef<HTMLFormElement>(null);
  const errors = useServerErrors(FIELDS, t, formRef);
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState<string | null>(null);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy || errors.hasFieldErrors) return;
    setBusy(true);
    errors.reset();
    try {
      const { message } = await api.request<null>('/password/forgot', { method: 'POST', body: { email } });
      setSent(message || t('forgot.intro'));
    } catch (error) {
      errors.fail(error);
    } finally {
      setBusy(false);
    }
  }

  const emailError = errors.error('email');
  return (
    <PageLayout>
      <Heading as="h1" size="2xl">
        {t('forgot.title')}
      </Heading>
      {sent ? (
        <FlashAlert status="success">{sent}</FlashAlert>
      ) : (
        <form ref={formRef} onSubmit={onSubmit} noValidate aria-busy={busy}>
          <Stack gap="5">
            <Text color="fg.muted">{t('forgot.intro')}</Text>
            {errors.flash && !emailError && <FlashAlert>{errors.flash}</FlashAlert>}
            <Field.Root invalid={Boolean(emailError)}>
              <Field.Label>{t('forgot.email')}</Field.Label>
              <TextInput
                name="email"
                type="email"
                inputMode="email"
                autoComplete="email"
                value={email}
                onChange={(e) => {
                  setEmail(e.target.value);
                  errors.clearField('email');
                }}
              />
              <Field.ErrorText>{emailError}</Field.ErrorText>
            </Field.Root>
            <Button type="submit" size="lg" disabled={busy || errors.hasFieldErrors}>
              {busy && <Spinner size="sm" aria-hidden="true" />}
              {t('forgot.submit')}
            </Button>
          </Stack>
        </form>
      )}
      <AppLink to={STATIC_ROUTES.login}>{t('forgot.backToLogin')}</AppLink>
    </PageLayout>
  );
}
