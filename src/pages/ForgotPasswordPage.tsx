import { useRef, useState, type FormEvent } from 'react';
import { Heading, Stack, Text } from '@chakra-ui/react';
import { FormField, SubmitButton } from '@/shared/components/FormField';
import { api } from '@/shared/api/client';
import { STATIC_ROUTES } from '@/core/routes';
import { TextInput } from '@/shared/components/TextInput';
import { AppLink } from '@/shared/components/AppLink';
import { FlashAlert } from '@/shared/components/FlashAlert';
import { PageLayout } from '@/shared/components/PageLayout';
import { useServerErrors } from '@/shared/forms';
import { usePageTitle, useT } from '@/shared/useT';

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
        <form ref={formRef} method="post" onSubmit={onSubmit} noValidate aria-busy={busy}>
          <Stack gap="5">
            <Text color="fg.muted">{t('forgot.intro')}</Text>
            {errors.flash && !emailError && <FlashAlert>{errors.flash}</FlashAlert>}
            <FormField label={t('forgot.email')} error={emailError}>
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
            </FormField>
            <SubmitButton busy={busy} disabled={errors.hasFieldErrors}>
              {t('forgot.submit')}
            </SubmitButton>
          </Stack>
        </form>
      )}
      <AppLink to={STATIC_ROUTES.login}>{t('forgot.backToLogin')}</AppLink>
    </PageLayout>
  );
}
