import { useRef, useState, type FormEvent } from 'react';
import { Checkbox, Field, Fieldset, Heading, HStack, NativeSelect, RadioCard, Spinner, Stack, Text } from '@chakra-ui/react';
import { FormField, SubmitButton } from '@/shared/components/FormField';
import { Navigate, useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { api } from '@/shared/api/client';
import { resolveConfig, useConfig, usePartners } from '@/shared/api/hooks';
import type { Partner, RegisterPayload, SessionUser } from '@/core/api-types';
import { PARTNER_DROPDOWN_THRESHOLD } from '@/core/registration';
import { decideSignInRedirect } from '@/core/session';
import { followRedirect } from '@/shared/auth-actions';
import { TextInput } from '@/shared/components/TextInput';
import { AppLink } from '@/shared/components/AppLink';
import { FlashAlert } from '@/shared/components/FlashAlert';
import { PageLayout } from '@/shared/components/PageLayout';
import { LegalLinks } from '@/shared/components/Brand';
import { PasswordInput } from '@/shared/components/PasswordInput';
import { referralCode, trackedCookies } from '@/shared/cookies';
import { useServerErrors } from '@/shared/forms';
import { session, useSession } from '@/shared/session';
import { trackLead } from '@/shared/tracking';
import { usePageTitle, useT } from '@/shared/useT';
import { typeSelectionPath } from './paths';
import { planPriceLabel } from './plan-price';

const FIELDS = ['email', 'phone', 'password', 'partner_id', 'marketing_accepted'] as const;

/** Which partner is chosen: the route's slug locks it; otherwise the unaffiliated one is the default. */
export function partnerSelection(partners: Partner[] | undefined, slug: string | undefined) {
  const bySlug = slug ? partners?.find((p) => p.slug === slug) : undefined;
  const fallback = partners?.find((p) => p.is_unaffiliated);
  return { locked: Boolean(bySlug), defaultId: bySlug?.id ?? fallback?.id ?? null };
}

/**
 * /register/account/:partner? (spec 000 §2.3, §4.3, §5): the account form. Submit stays disabled
 * until e-mail, phone, password, subscription type and the terms checkbox are all filled. Each
 * subscription type shows its price, and its footnote where it has one (issue 17 item 5).
 */
export function AccountPage() {
  const t = useT('register');
  usePageTitle(t('account.pageTitle'));
  const navigate = useNavigate();
  const { partner: slug } = useParams();
  const { search } = useLocation();
  const [query] = useSearchParams();
  const { registration } = useSession();
  const { config, loaded } = useConfig();
  const partners = usePartners(slug);
  const formRef = useRef<HTMLFormElement>(null);
  const errors = useServerErrors(FIELDS, t, formRef);

  const [email, setEmail] = useState('');
  const [phone, setPhone] = useState('');
  const [password, setPassword] = useState('');
  const [chosenPartner, setChosenPartner] = useState<number | null>(null);
  const [accepted, setAccepted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [referral] = useState(() => referralCode(query, typeof document === 'undefined' ? '' : document.cookie));

  const registrationType = registration.type;
  if (!registrationType) return <Navigate to={typeSelectionPath(slug, search)} replace />;

  const list = partners.data;
  const { locked, defaultId } = partnerSelection(list, slug);
  const partnerId = locked ? defaultId : (chosenPartner ?? defaultId);
  const complete = Boolean(email.trim() && phone.trim() && password && partnerId && accepted);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!complete || busy || errors.hasFieldErrors || !registrationType || !partnerId) return;
    setBusy(true);
    errors.reset();
    try {
      const cfg = await resolveConfig(loaded ? config : null);
      const payload: RegisterPayload = {
        email,
        password,
        phone,
        referral_code: referral,
        cookies: trackedCookies(document.cookie, cfg.product_slug),
        marketing_accepted: accepted,
        registration_type: registrationType,
        partner_id: partnerId,
      };
      const user = await api.post<SessionUser>('/register', payload);
      session.setUser(user);
      trackLead(user.registration_type, user.id);
      followRedirect(decideSignInRedirect(user, { dashboardUrl: cfg.dashboard_url }), navigate);
    } catch (error) {
      errors.fail(error);
      setBusy(false);
    }
  }

  const partnerError = errors.error('partner_id');
  const onPartner = (value: string) => {
    setChosenPartner(value ? Number(value) : null);
    errors.clearField('partner_id');
  };

  /** A plan's price(s) in words, a "*" pointing at its footnote (issue 17 item 5). */
  const planPrices = (p: Partner) => {
    const text = (p.prices ?? []).map((price) => planPriceLabel(price, t)).join(' · ');
    return text ? `${text}${p.footnote ? ' *' : ''}` : '';
  };
  const footnotes = (plans: Partner[]) =>
    plans
      .filter((p) => p.footnote)
      .map((p) => (
        <Text key={p.id} fontSize="sm" color="fg.muted" data-testid="plan-footnote">
          * {p.name}: {p.footnote}
        </Text>
      ));

  function partnerField() {
    if (partners.error) return <FlashAlert>{t('account.partnerLoadError')}</FlashAlert>;
    if (!list) return <Spinner size="sm" aria-label={t('common:loading')} />;
    if (list.length === 0) {
      return (
        <Stack gap="1.5">
          <Text fontWeight="medium">{t('account.partner')}</Text>
          <Text color="fg.muted">{t('account.partnerEmpty')}</Text>
        </Stack>
      );
    }
    const lockedNote = locked ? <Text fontSize="sm" color="fg.muted">{t('account.partnerLocked')}</Text> : null;
    const chosen = list.find((p) => p.id === partnerId);
    if (list.length >= PARTNER_DROPDOWN_THRESHOLD) {
      return (
        <Field.Root invalid={Boolean(partnerError)} disabled={locked}>
          <Field.Label>{t('account.partner')}</Field.Label>
          <NativeSelect.Root>
            <NativeSelect.Field name="partner_id" placeholder={t('account.partnerPlaceholder')} value={partnerId ? String(partnerId) : ''} onChange={(e) => onPartner(e.currentTarget.value)}>
              {list.map((p) => (
                <option key={p.id} value={String(p.id)}>
                  {p.name}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
          {chosen && planPrices(chosen) ? (
            <Text fontSize="sm" data-testid="plan-price">
              {planPrices(chosen)}
            </Text>
          ) : null}
          {chosen ? footnotes([chosen]) : null}
          {lockedNote}
          <Field.ErrorText>{partnerError}</Field.ErrorText>
        </Field.Root>
      );
    }
    return (
      <Fieldset.Root invalid={Boolean(partnerError)} disabled={locked}>
        <Fieldset.Legend fontWeight="medium" fontSize="sm">
          {t('account.partner')}
        </Fieldset.Legend>
        <RadioCard.Root
          name="partner_id"
          size="sm"
          value={partnerId ? String(partnerId) : null}
          disabled={locked}
          onValueChange={(details) => onPartner(details.value ?? '')}
        >
          <Stack gap="2">
            {list.map((p) => (
              <RadioCard.Item key={p.id} value={String(p.id)} data-testid="plan">
                {/* The price is announced with the choice (the radio's name is the plan's name only). */}
                <RadioCard.ItemHiddenInput aria-describedby={planPrices(p) ? `plan-price-${p.id}` : undefined} />
                <RadioCard.ItemControl>
                  <RadioCard.ItemContent>
                    <RadioCard.ItemText>{p.name}</RadioCard.ItemText>
                    {planPrices(p) ? (
                      <RadioCard.ItemDescription id={`plan-price-${p.id}`} data-testid="plan-price">
                        {planPrices(p)}
                      </RadioCard.ItemDescription>
                    ) : null}
                  </RadioCard.ItemContent>
                  <RadioCard.ItemIndicator />
                </RadioCard.ItemControl>
              </RadioCard.Item>
            ))}
          </Stack>
        </RadioCard.Root>
        {footnotes(list)}
        {lockedNote}
        <Fieldset.ErrorText>{partnerError}</Fieldset.ErrorText>
      </Fieldset.Root>
    );
  }

  const emailError = errors.error('email');
  const phoneError = errors.error('phone');
  const passwordError = errors.error('password');
  const termsError = errors.error('marketing_accepted');

  return (
    <PageLayout>
      <Stack gap="2">
        <Heading as="h1" size="2xl">
          {t('account.title')}
        </Heading>
        <Text color="fg.muted">{t('account.intro')}</Text>
      </Stack>
      {referral && (
        <Text fontSize="sm" bg="brand.subtle" color="brand.fg" px="3" py="2" borderRadius="l2">
          {t('account.referral', { code: referral })}
        </Text>
      )}
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
          <FormField label={t('account.email')} error={emailError}>
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
          <FormField label={t('account.phone')} error={phoneError}>
            <TextInput
              name="phone"
              type="tel"
              inputMode="tel"
              autoComplete="tel-national"
              placeholder={t('account.phonePlaceholder')}
              value={phone}
              onChange={(e) => {
                setPhone(e.target.value);
                errors.clearField('phone');
              }}
            />
          </FormField>
          <FormField label={t('account.password')} error={passwordError} hint={t('account.passwordHint')}>
            <PasswordInput
              name="password"
              autoComplete="new-password"
              value={password}
              onChange={(e) => {
                setPassword(e.target.value);
                errors.clearField('password');
              }}
            />
          </FormField>
          {partnerField()}
          <Field.Root invalid={Boolean(termsError)}>
            <Checkbox.Root
              name="marketing_accepted"
              checked={accepted}
              onCheckedChange={(details) => {
                setAccepted(details.checked === true);
                errors.clearField('marketing_accepted');
              }}
              alignItems="flex-start"
            >
              <Checkbox.HiddenInput />
              <Checkbox.Control mt="0.5" />
              <Checkbox.Label fontWeight="normal">{t('account.terms')}</Checkbox.Label>
            </Checkbox.Root>
            {/* The terms the checkbox accepts, and the privacy policy: real pages, opened beside the form. */}
            <HStack gap="4" flexWrap="wrap" fontSize="sm" ps="7" data-testid="register-legal-links">
              <LegalLinks newTab />
            </HStack>
            <Field.ErrorText>{termsError}</Field.ErrorText>
          </Field.Root>
          <SubmitButton busy={busy} disabled={!complete || errors.hasFieldErrors}>
            {t('account.submit')}
          </SubmitButton>
          <AppLink to={typeSelectionPath(slug, search)} alignSelf="start">
            {t('account.back')}
          </AppLink>
        </Stack>
      </form>
    </PageLayout>
  );
}
