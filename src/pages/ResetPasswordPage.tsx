import { useMemo, useRef, useState, type FormEvent } from 'react';
import { Heading, Stack, Text } from '@chakra-ui/react';
import { FormField, SubmitButton } from '@/shared/components/FormField';
import { useSearchParams } from 'react-router';
import { api } from '@/shared/api/client';
import type { ResetPayload } from '@/core/api-types';
import { STATIC_ROUTES } from '@/core/routes';
import { AppLink } from '@/shared/components/AppLink';
import { FlashAlert } from '@/shared/components/FlashAlert';
import { PageLayout } from '@/shared/components/PageLayout';
import { PasswordInput } from '@/shared/components/PasswordInput';
import { useServerErrors } from '@/shared/forms';
import { usePageTitle, useT } from '@/shared/useT';

const FIELDS = ['password', 'password_confirmation'] as const;
export const RESET_API_PREFIX = '/api/password/reset/';

/**
 * The post target of the reset link's `url` parameter, or null when it may not be used: only a
 * same-origin address under /api/password/reset/ is accepted, so a crafted link can never make
 * this page send a new password anywhere else.
 */
export function resetTarget(url: string | null, origin: string = window.location.origin): string | null {
  if (!url) return null;
  let parsed: URL;
  try {
    parsed = new URL(url, origin);
  } catch {
    return null;
  }
  if (parsed.origin !== origin) return null;
  if (!parsed.pathname.startsWith(RESET_API_PREFIX) || parsed.pathname.length <= RESET_API_PREFIX.length) return null;
  if (parsed.pathname.includes('/..') || parsed.pathname.includes('%2e') || parsed.pathname.includes('%2E')) return null;
  return `${parsed.pathname}${parsed.search}`;
}

/** /password/reset?url=… (spec 000 §2.3): new password and confirmation, 'Resetează'. */
export function ResetPasswordPage() {
  const t = useT('auth');
  usePageTitle(t('reset.pageTitle'));
  const [params] = useSearchParams();
  const target = useMemo(() => resetTarget(params.get('url')), [params]);
  const formRef = useRef<HTMLFormElement>(null);
  const errors = useServerErrors(FIELDS, t, formRef);
  const [form, setForm] = useState<ResetPayload>({ password: '', password_confirmation: '' });
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string | null>(null);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!target || busy || errors.hasFieldErrors) return;
    setBusy(true);
    errors.reset();
    try {
      const { message } = await api.request<null>(target, { method: 'POST', body: form });
      setDone(message);
    } catch (error) {
      errors.fail(error);
    } finally {
      setBusy(false);
    }
  }

  function field(name: (typeof FIELDS)[number], label: string, hint?: string) {
    const error = errors.error(name);
    return (
      <FormField label={label} error={error} hint={hint}>
        <PasswordInput
          name={name}
          autoComplete="new-password"
          value={form[name]}
          onChange={(e) => {
            setForm((f) => ({ ...f, [name]: e.target.value }));
            errors.clearField(name);
          }}
        />
      </FormField>
    );
  }

  return (
    <PageLayout>
      <Heading as="h1" size="2xl">
        {t('reset.title')}
      </Heading>
      {!target ? (
        <>
          <FlashAlert>{t('reset.invalidLink')}</FlashAlert>
          <AppLink to={STATIC_ROUTES.forgot}>{t('reset.requestNew')}</AppLink>
        </>
      ) : done !== null ? (
        <>
          {done && <FlashAlert status="success">{done}</FlashAlert>}
          <AppLink to={STATIC_ROUTES.login}>{t('reset.toLogin')}</AppLink>
        </>
      ) : (
        <form ref={formRef} method="post" onSubmit={onSubmit} noValidate aria-busy={busy}>
          <Stack gap="5">
            {(errors.otherErrors.length > 0 || (errors.flash && !errors.hasFieldErrors)) && (
              <FlashAlert>
                {errors.otherErrors.length > 0
                  ? errors.otherErrors.map((m) => <Text key={m}>{m}</Text>)
                  : errors.flash}
              </FlashAlert>
            )}
            {/* The link's token is refused (expired, used): the way to a new one is right there. */}
            {errors.otherErrors.length > 0 && <AppLink to={STATIC_ROUTES.forgot}>{t('reset.requestNew')}</AppLink>}
            {field('password', t('reset.password'), t('reset.passwordHint'))}
            {field('password_confirmation', t('reset.confirmation'))}
            <SubmitButton busy={busy} disabled={errors.hasFieldErrors}>
              {t('reset.submit')}
            </SubmitButton>
          </Stack>
        </form>
      )}
    </PageLayout>
  );
}
