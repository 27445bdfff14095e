import { Heading, RadioCard, Stack, Text } from '@chakra-ui/react';
import { useLocation, useNavigate, useParams } from 'react-router';
import { RegistrationType, type RegistrationTypeValue } from '@/core/registration';
import { STATIC_ROUTES } from '@/core/routes';
import { AppLink } from '@/shared/components/AppLink';
import { PageLayout } from '@/shared/components/PageLayout';
import { session } from '@/shared/session';
import { usePageTitle, useT } from '@/shared/useT';
import { accountPath } from './paths';

const OPTIONS: { value: RegistrationTypeValue; label: string; description: string }[] = [
  { value: RegistrationType.existingCompany, label: 'type.existing', description: 'type.existingDescription' },
  { value: RegistrationType.requestingCompany, label: 'type.requesting', description: 'type.requestingDescription' },
];

/**
 * /register/:partner? (spec 000 §2.3): 'Am PFA' (1) or 'Vreau PFA' (2). Choosing stores the
 * registration type and goes to the account form, keeping the partner and the query string.
 */
export function TypeSelectionPage() {
  const t = useT('register');
  usePageTitle(t('type.pageTitle'));
  const navigate = useNavigate();
  const { partner } = useParams();
  const { search } = useLocation();

  function choose(value: string | null) {
    const type = Number(value);
    if (type !== RegistrationType.existingCompany && type !== RegistrationType.requestingCompany) return;
    session.setRegistrationType(type);
    navigate(accountPath(partner, search));
  }

  return (
    <PageLayout>
      <Stack gap="2">
        <Heading as="h1" size="2xl">
          {t('type.title')}
        </Heading>
        <Text color="fg.muted" id="register-type-intro">
          {t('type.intro')}
        </Text>
      </Stack>
      <RadioCard.Root name="registration_type" onValueChange={(details) => choose(details.value)} aria-describedby="register-type-intro">
        <RadioCard.Label srOnly>{t('type.legend')}</RadioCard.Label>
        <Stack gap="3">
          {OPTIONS.map((option) => (
            <RadioCard.Item key={option.value} value={String(option.value)}>
              <RadioCard.ItemHiddenInput />
              <RadioCard.ItemControl>
                <RadioCard.ItemContent>
                  <RadioCard.ItemText fontSize="lg">{t(option.label)}</RadioCard.ItemText>
                  <RadioCard.ItemDescription>{t(option.description)}</RadioCard.ItemDescription>
                </RadioCard.ItemContent>
                <RadioCard.ItemIndicator />
              </RadioCard.ItemControl>
            </RadioCard.Item>
          ))}
        </Stack>
      </RadioCard.Root>
      <Text>
        {t('type.haveAccount')} <AppLink to={STATIC_ROUTES.login}>{t('type.login')}</AppLink>
      </Text>
    </PageLayout>
  );
}
