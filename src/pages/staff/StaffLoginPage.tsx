import { useRef, useState, type FormEvent } from 'react';
import { Heading, Stack, Text } from '@chakra-ui/react';
import { redirect, useNavigate, useSearchParams } from 'react-router';
import { FormField, SubmitButton } from '@/shared/components/FormField';
import { FlashAlert } from '@/shared/components/FlashAlert';
import { PageLayout } from '@/shared/components/PageLayout';
import { PasswordInput } from '@/shared/components/PasswordInput';
import { TextInput } from '@/shared/components/TextInput';
import { useServerErrors } from '@/shared/forms';
import { usePageTitle } from '@/shared/useT';
import { staffApi } from './api';
import { useStaffT } from './i18n';
import { STAFF_START, staffSession, type StaffSession } from './session';

const FIELDS = ['email', 'password'] as const;

/** Only a path inside /staff is followed after sign-in (never another site). */
export function safeStaffNext(next: string | null): string | null {
  return next && /^\/staff(\/|$|\?)/.test(next) && !next.startsWith('/staff/login') ? next : null;
}

/** A signed-in staff member does not see the form: they go where they work. */
export function staffLoginLoader({ request }: { request: Request }) {
  const current = staffSession.staff();
  if (current) throw redirect(safeStaffNext(new URL(request.url).searchParams.get('next')) ?? STAFF_START);
  return null;
}

/** /staff/login (issue 18): an e-mail, a password, a submit button; POST /api/staff/login. */
export function StaffLoginPage() {
  const t = useStaffT();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const formRef = useRef<HTMLFormElement>(null);
  const errors = useServerErrors(FIELDS, t, formRef);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  usePageTitle(t('login.pageTitle'));

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    errors.reset();
    try {
      const session = await staffApi.post<StaffSession>('/staff/login', { email, password });
      staffSession.set(session);
      navigate(safeStaffNext(params.get('next')) ?? STAFF_START, { replace: true });
    } catch (error) {
      errors.fail(error);
      setBusy(false);
    }
  }

  function edited(field: (typeof FIELDS)[number]) {
    // A wrong pair is reported on `email`: changing either field clears it.
    for (const f of FIELDS) if (f === field || errors.error(f) === errors.flash) errors.clearField(f);
  }

  return (
    <PageLayout>
      <Stack gap="2">
        <Heading as="h1" size="2xl">
          {t('login.title')}
        </Heading>
        <Text color="fg.muted">{t('login.subtitle')}</Text>
      </Stack>
      <form ref={formRef} method="post" onSubmit={onSubmit} noValidate aria-busy={busy}>
        <Stack gap="5">
          {errors.flash && (
            <FlashAlert>
              {errors.flash}
              {errors.otherErrors.map((m) => (
                <Text key={m}>{m}</Text>
              ))}
            </FlashAlert>
          )}
          <FormField label={t('login.email')} error={errors.error('email')}>
            <TextInput
              name="email"
              type="email"
              inputMode="email"
              autoComplete="username"
              value={email}
              onChange={(e) => {
                setEmail(e.target.value);
                edited('email');
              }}
            />
          </FormField>
          <FormField label={t('login.password')} error={errors.error('password')}>
            <PasswordInput
              name="password"
              autoComplete="current-password"
              value={password}
              onChange={(e) => {
                setPassword(e.target.value);
                edited('password');
              }}
            />
          </FormField>
          <SubmitButton busy={busy}>{t('login.submit')}</SubmitButton>
        </Stack>
      </form>
    </PageLayout>
  );
}
