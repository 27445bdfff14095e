import { useSearchParams } from 'react-router';
import { useT } from '@/shared/useT';
import { LoginLayout } from './LoginPage';

/** /auth?source=&callbackUrl=: sign-in for other applications (spec 000 §2.3). */
export function AuthPage() {
  const t = useT('auth');
  const [params] = useSearchParams();
  return (
    <LoginLayout
      subtitle={t('login.authSubtitle')}
      form={{ mode: 'auth', source: params.get('source') ?? '', callbackUrl: params.get('callbackUrl') ?? '' }}
    />
  );
}
