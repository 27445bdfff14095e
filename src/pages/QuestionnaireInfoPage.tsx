import { Button, Heading, HStack, Link, Stack, Text } from '@chakra-ui/react';
import { useNavigate } from 'react-router';
import { useConfig } from '@/shared/api/hooks';
import { flowPath } from '@/core/session';
import { PageLayout } from '@/shared/components/PageLayout';
import { session, useSession } from '@/shared/session';
import { api } from '@/shared/api/client';
import type { RegistrationTypeValue } from '@/core/registration';
import { useState } from 'react';
import { usePageTitle, useT } from '@/shared/useT';


/**
 * /inregistrare/chestionar/info (spec 001 §2 item 12, §4 Questionnaire): the dead end after the
 * exclusion questionnaire. Back marks the request unlost and returns to the flow of the
 * registration type the server answers.
 */
export function QuestionnaireInfoPage() {
  const t = useT('pages');
  usePageTitle(t('questionnaireInfo.pageTitle'));
  const navigate = useNavigate();
  const { user } = useSession();
  const { config } = useConfig();

  const [busy, setBusy] = useState(false);
  const back = async () => {
    setBusy(true);
    try {
      const { registration_type } = await api.post<{ registration_type: RegistrationTypeValue }>('/api/mark-as-unlost');
      if (user) session.setUser({ ...user, stop_flow: false });
      navigate(flowPath(registration_type));
    } catch {
      navigate(user ? flowPath(user.registration_type) : '/');
    }
  };

  return (
    <PageLayout maxW="lg">
      <Heading as="h1" size="2xl">
        {t('questionnaireInfo.title')}
      </Heading>
      <Stack gap="3">
        <Text>{t('questionnaireInfo.lacking')}</Text>
        <Text>{t('questionnaireInfo.ideal')}</Text>
        <Text>{t('questionnaireInfo.keep')}</Text>
      </Stack>
      <HStack gap="4" flexWrap="wrap">
        <Button variant="outline" onClick={() => void back()} loading={busy} loadingText={t('questionnaireInfo.back')}>
          {t('questionnaireInfo.back')}
        </Button>
        {/* The brand settings always have both (content/brand.json, MAIN_SITE_URL / CONTACT_EMAIL): never a dead end. */}
        <Button asChild>
          <a href={config.site_url}>{t('questionnaireInfo.site')}</a>
        </Button>
      </HStack>
      <Link href={`mailto:${config.contact_email}`} color="brand.fg" textDecoration="underline">
        {t('questionnaireInfo.contact')}
      </Link>
    </PageLayout>
  );
}
