import { useState } from 'react';
import { Button } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { request } from '@/shared/api/client';
import { isLanguage, otherLanguage, storeLanguage, type Language } from '@/shared/language';
import { session } from '@/shared/session';

/**
 * The language switch (issue 18) of the guest pages and the flow header: a button named after the
 * other language in its own words ("English" on a Romanian page, "Română" on an English one, with its
 * `lang`). The choice is stored (src/shared/language.ts) and, signed in, kept by the server for the
 * mails it sends later (`PUT /api/user/language`). Works in the app (i18next) and on the guest pages
 * (src/guest/i18n.ts), which both answer `useTranslation().i18n.changeLanguage`.
 */
export function LanguageSwitch() {
  const { i18n } = useTranslation();
  const current: Language = isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : 'ro';
  const next = otherLanguage(current);
  const [busy, setBusy] = useState(false);
  return (
    <Button
      variant="ghost"
      size="sm"
      lang={next.language}
      data-testid="language-switch"
      disabled={busy}
      onClick={() => {
        setBusy(true);
        storeLanguage(next.language);
        void Promise.resolve(i18n.changeLanguage(next.language))
          .then(() => (session.user() ? request('/user/language', { method: 'PUT', body: { language: next.language } }) : null))
          // The choice is stored in the browser already: a failed save only leaves the mails in the old language.
          .catch(() => undefined)
          .finally(() => setBusy(false));
      }}
    >
      {next.label}
    </Button>
  );
}
