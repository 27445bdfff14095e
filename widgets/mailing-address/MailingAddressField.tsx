import { useEffect, useRef, useState } from 'react';
import { Button, Fieldset, Heading, RadioGroup, Stack, Text } from '@chakra-ui/react';
import type { FieldProps } from '@rjsf/utils';
import { stepContext, type MailingAddress, type MailingAddressValues, type Profile } from '../types';
import { AddressForm } from '../address-form/AddressForm';
import { FieldErrors } from '../shared/FieldErrors';
import { RadioCard, RadioCardLine } from '../shared/RadioCard';

export type MailingAddressType = 'id_card_address' | 'custom_address';

interface MailingAddressData {
  mailing_address_type?: MailingAddressType;
}

/** Spec 000 §5: a home address has county, city, street and number. */
function hasHomeAddress(profile: Profile): boolean {
  return Boolean(profile.county_id && profile.city_id && profile.street && profile.number);
}

/** The ID card address as the profile gives it (its two formatted lines). */
function homeAddressLines(profile: Profile): string[] {
  const lines = [profile.address_1, profile.address_2].filter((line): line is string => Boolean(line));
  if (lines.length) return lines;
  return [[profile.street, profile.number && `nr. ${profile.number}`, profile.city, profile.county].filter(Boolean).join(', ')];
}

/** Spec 001 §3 "Mailing address" display: street, number, building, (entrance,) floor, apartment, county, city. */
export function formatMailingAddress(address: MailingAddress): string {
  return [
    address.street,
    `nr. ${address.number}`,
    address.building && `bl. ${address.building}`,
    address.entrance && `sc. ${address.entrance}`,
    address.floor && `et. ${address.floor}`,
    address.apartment && `ap. ${address.apartment}`,
    address.county,
    address.city,
  ]
    .filter(Boolean)
    .join(', ');
}

/**
 * The mailing-address step (spec 001 §2 item 6, §4 "Mailing address type"): the address on the
 * ID card, or another correspondence address. Choosing the latter shows the saved address with an
 * edit button, or the address form; saving it (`dossier.saveMailingAddress`) reloads the request and
 * selects it. Form data `{ mailing_address_type }`; it stays empty (so "next" stays disabled) while
 * the other address is chosen but not saved yet.
 */
export default function MailingAddressField(props: FieldProps<MailingAddressData>) {
  const { formData, onChange, registry, fieldPathId, errorSchema, disabled } = props;
  const { services, profile, mailingAddress, reloadRequest } = stepContext(registry);
  const { t, places, dossier } = services;
  const stored = formData?.mailing_address_type;

  // What was just saved, until the reloaded request brings it.
  const [justSaved, setJustSaved] = useState<MailingAddress | null>(null);
  const address = mailingAddress ?? justSaved;
  const homeAddress = hasHomeAddress(profile);
  const [choice, setChoice] = useState<MailingAddressType | null>(stored ?? null);
  const [editing, setEditing] = useState(false);
  const [saved, setSaved] = useState(false);
  const live = useRef(true);
  useEffect(() => {
    live.current = true;
    return () => {
      live.current = false;
    };
  }, []);

  const path = fieldPathId.path;
  const select = (next: MailingAddressType | null) => onChange(next ? { mailing_address_type: next } : {}, path);

  // A choice the server would refuse (no such address) is not kept as the step's data.
  const selectable = (type: MailingAddressType) => (type === 'custom_address' ? Boolean(address) : homeAddress);
  useEffect(() => {
    if (stored && !selectable(stored)) onChange({}, path);
  });

  const choose = (type: MailingAddressType) => {
    setChoice(type);
    setSaved(false);
    setEditing(false);
    select(selectable(type) ? type : null);
  };

  const save = async (values: MailingAddressValues) => {
    const result = await dossier.saveMailingAddress(values);
    if (!live.current) return;
    setJustSaved(result);
    // Saved already: a failed reload only delays the request's copy (the saved one is shown meanwhile).
    await reloadRequest().catch(() => undefined);
    if (!live.current) return;
    setEditing(false);
    setSaved(true);
    setChoice('custom_address');
    select('custom_address');
  };

  const errors = errorSchema?.mailing_address_type?.__errors;
  const errorId = `${fieldPathId.$id}__mailing_address_type_error`;
  const showForm = choice === 'custom_address' && (editing || !address);
  const initial: Partial<MailingAddress> = address ?? {
    contact_first_name: profile.first_name ?? '',
    contact_last_name: profile.last_name ?? '',
  };

  return (
    <Stack gap="5" data-testid="mailing-address">
      <Fieldset.Root invalid={Boolean(errors?.length)} disabled={disabled}>
        <Fieldset.Legend srOnly>{t('steps:mailingAddress.choiceLabel')}</Fieldset.Legend>
        <RadioGroup.Root
          value={choice}
          onValueChange={(e) => e.value && choose(e.value as MailingAddressType)}
          name={`${fieldPathId.$id}_mailing_address_type`}
          aria-describedby={errors?.length ? errorId : undefined}
          disabled={disabled}
        >
          <Stack gap="4">
            <RadioCard value="id_card_address" title={t('steps:mailingAddress.idCard')} selected={choice === 'id_card_address'} disabled={!homeAddress} padding="4">
              {homeAddress ? (
                homeAddressLines(profile).map((line) => <RadioCardLine key={line}>{line}</RadioCardLine>)
              ) : (
                <RadioCardLine>{t('steps:mailingAddress.idCardMissing')}</RadioCardLine>
              )}
            </RadioCard>
            <RadioCard value="custom_address" title={t('steps:mailingAddress.custom')} selected={choice === 'custom_address'} padding="4">
              <RadioCardLine>{t('steps:mailingAddress.customHint')}</RadioCardLine>
            </RadioCard>
          </Stack>
        </RadioGroup.Root>
        <FieldErrors id={errorId} errors={errors} />
      </Fieldset.Root>

      {choice === 'custom_address' && address && !editing ? (
        <Stack gap="2" data-testid="mailing-address-saved" borderWidth="1px" borderRadius="md" p="4">
          <Heading as="h2" size="md">
            {t('steps:mailingAddress.savedTitle')}
          </Heading>
          <Text>{t('steps:mailingAddress.contactName', { name: `${address.contact_last_name} ${address.contact_first_name}` })}</Text>
          {address.contact_phone ? <Text>{t('steps:mailingAddress.contactPhoneShown', { phone: address.contact_phone })}</Text> : null}
          <Text>{formatMailingAddress(address)}</Text>
          {address.postal_code ? <Text>{address.postal_code}</Text> : null}
          {saved ? (
            <Text color="fg.success" role="status">
              {t('steps:mailingAddress.saved')}
            </Text>
          ) : null}
          <Button variant="outline" onClick={() => setEditing(true)} alignSelf="flex-start" disabled={disabled}>
            {t('steps:mailingAddress.edit')}
          </Button>
        </Stack>
      ) : null}

      {showForm ? (
        <Stack gap="3">
          {!address ? <Text color="fg.muted">{t('steps:mailingAddress.saveFirst')}</Text> : null}
          <AddressForm
            mode="correspondence"
            initial={initial}
            places={places}
            t={t}
            onSave={save}
            onCancel={address ? () => setEditing(false) : undefined}
          />
        </Stack>
      ) : null}
    </Stack>
  );
}
