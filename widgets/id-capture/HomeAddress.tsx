import { useEffect, useRef, useState } from 'react';
import { Button, Heading, Stack, Text } from '@chakra-ui/react';
import type { AddressValues, PlacesService, Profile, StepServices } from '../types';
import { AddressForm } from '../address-form/AddressForm';
import { useLive } from '../shared/useLive';
import { documentAddress, formatAddress, profileComplete } from './identity-rules';

export interface HomeAddressProps {
  profile: Profile;
  places: PlacesService;
  t: StepServices['t'];
  withPlaceOfBirth: boolean;
  /** Saves the address and reloads the request; rejects with field errors. */
  save(values: AddressValues): Promise<void>;
}

/**
 * After approval: the name and home address from the decision, and the form that completes or edits
 * them. While the address is incomplete and the card's address was read but not matched with
 * certainty, that text is shown ("Adresa de pe act: …") and the form opens with what was matched
 * (county, street, number, … in the profile): the applicant picks the locality or completes the rest.
 */
export function HomeAddress({ profile, places, t, withPlaceOfBirth, save }: HomeAddressProps) {
  const [editing, setEditing] = useState(false);
  const [saved, setSaved] = useState(false);
  const live = useLive();
  // Closing the form would leave the focus on the page body: it goes to what the save answered.
  const savedMessage = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (saved && !editing) savedMessage.current?.focus();
  }, [saved, editing]);

  if (editing) {
    return (
      <AddressForm
        initial={profile}
        places={places}
        t={t}
        withPlaceOfBirth={withPlaceOfBirth}
        onSave={async (values) => {
          await save(values);
          if (!live.current) return;
          setEditing(false);
          setSaved(true);
        }}
        onCancel={() => setEditing(false)}
      />
    );
  }
  const address = formatAddress(profile);
  const complete = Boolean(address) && profileComplete(profile);
  const fromDocument = complete ? null : documentAddress(profile);
  return (
    <Stack gap="2" data-testid="identity-address">
      <Heading as="h2" size="md">
        {t('steps:identity.homeAddress')}
      </Heading>
      {profile.first_name || profile.last_name ? (
        <Text fontWeight="semibold">
          {profile.last_name} {profile.first_name}
        </Text>
      ) : null}
      {complete ? (
        <Text>{address}</Text>
      ) : (
        // What is still needed, in one line, with the form that gives it as the primary action below.
        <Text data-testid="identity-missing-address">
          <Text as="strong">{t('steps:identity.missingAddress')}</Text>
          {': '}
          {t('steps:identity.missingAddressNext')}
        </Text>
      )}
      {fromDocument ? (
        <Stack gap="1" data-testid="identity-document-address">
          <Text>{t('steps:identity.documentAddress', { address: fromDocument })}</Text>
          <Text color="fg.muted">{t(profile.city_id ? 'steps:identity.documentAddressComplete' : 'steps:identity.documentAddressPick')}</Text>
        </Stack>
      ) : null}
      {profile.place_of_birth ? <Text>{t('steps:identity.placeOfBirth', { place: profile.place_of_birth })}</Text> : null}
      {saved ? (
        <Text color="fg.success" role="status" ref={savedMessage} tabIndex={-1}>
          {t('steps:identity.saved')}
        </Text>
      ) : null}
      <Button variant={complete ? 'outline' : 'solid'} colorPalette={complete ? undefined : 'blue'} onClick={() => setEditing(true)} alignSelf="flex-start">
        {t('steps:identity.edit')}
      </Button>
    </Stack>
  );
}
