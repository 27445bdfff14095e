import { useRef, useState, type FormEvent } from 'react';
import { Stack, Text } from '@chakra-ui/react';
import { FormField, SubmitButton } from '@/shared/components/FormField';
import { useNavigate, useSearchParams } from 'react-router';
import { api } from '@/shared/api/client';
import { resolveConfig, useConfig } from '@/shared/api/hooks';
import type { AuthResult, SessionUser } from '@/core/api-types';
import { returnRouteOf, STATIC_ROUTES } from '@/core/routes';
import { decideSignInRedirect } from '@/core/session';
import { followRedirect } from '@/shared/auth-actions';
import { browser } from '@/shared/browser';
import { TextInput } from '@/shared/components/TextInput';
import { AppLink } from '@/shared/components/AppLink';
import { FlashAlert } from '@/shared/components/FlashAlert';
import { PasswordInput } from '@/shared/components/PasswordInput';
import { useServerErrors } from '@/shared/forms';
import { session } from '@/shared/session';
import { trackLogin } from '@/shared/tracking';
import { useT } from '@/shared/useT';

const FIELDS = ['email', 'password'] as const;

export type LoginFormProps = { mode: 'login' } | { mode: 'auth'; source: string; callbackUrl: string };

/**
 * The sign-in form (spec 000 §2.3, §4.1, §5). `login`: POST /api/login, store the user, then the
 * redirect decision of src/core/session. `auth` (sign-in for other applications): POST /api/auth
 * with source and callbackUrl, then the browser goes to the server's `redirect_url`.
 */
export function LoginForm(props: LoginFormProps) {
  const t = useT('auth');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const { config, loaded } = useConfig();
  const formRef = useRef<HTMLFormElement>(null);
  const errors = useServerErrors(FIELDS, t, formRef);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy || errors.hasFieldErrors) return;
    setBusy(true);
    errors.reset();
    try {
      if (props.mode === 'auth') {
        const result = await api.post<AuthResult>('/auth', { email, password, source: props.source, callbackUrl: props.callbackUrl });
        browser.assign(result.redirect_url);
        return;
      }
      // Spec 000 §4.1 step 1: forget any previous user and everything stored.
      session.clear();
      const user = await api.post<SessionUser>('/login', { email, password });
      session.setUser(user);
      trackLogin(user.id);
      const { dashboard_url } = await resolveConfig(loaded ? config : null);
      // `?redirect=my-data`: a guest sent here from their account page goes back to it (issue 32).
      followRedirect(decideSignInRedirect(user, { dashboardUrl: dashboard_url, redirectRouteName: returnRouteOf(params) }), navigate);
    } catch (error) {
      errors.fail(error);
      setBusy(false);
    }
  }

  const emailError = errors.error('email');
  const passwordError = errors.error('password');

  /**
   * Typing in a field clears its error. A failed credentials check is reported on `email` but is
   * about the pair: correcting the password alone must also re-enable the submit button.
   */
  function edited(field: (typeof FIELDS)[number]) {
    errors.clearField(field);
    for (const other of FIELDS) {
      if (other !== field && errors.flash && errors.error(other) === errors.flash) errors.clearField(other);
    }
  }

  return (
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
        {props.mode === 'auth' && (
          <>
            <input type="hidden" name="source" value={props.source} />
            <input type="hidden" name="callbackUrl" value={props.callbackUrl} />
          </>
        )}
        <FormField label={t('login.email')} error={emailError}>
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
        <FormField label={t('login.password')} error={passwordError}>
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
        <AppLink to={STATIC_ROUTES.forgot} alignSelf="start">
          {t('login.forgot')}
        </AppLink>
        <SubmitButton busy={busy} disabled={errors.hasFieldErrors}>
          {t('login.submit')}
        </SubmitButton>
        <Text>
          {t('login.noAccount')} <AppLink to={STATIC_ROUTES['register-type-selection']}>{t('login.register')}</AppLink>
        </Text>
      </Stack>
    </form>
  );
}
