import { useEffect, useState } from 'react';
import { Alert, Button, Fieldset, RadioGroup, Spinner, Stack, Text } from '@chakra-ui/react';
import type { FieldProps } from '@rjsf/utils';
import { stepContext, type BranchOffice } from '../types';
import { CountyPicker } from '../county-city';
import { FieldErrors } from '../shared/FieldErrors';
import { RadioCard, RadioCardLine } from '../shared/RadioCard';

interface IcreditOfficeData {
  icredit_county_id?: number | null;
  icredit_office_id?: number;
}

interface Offices {
  /** County and attempt the list belongs to. */
  key: string;
  items: BranchOffice[];
  failed: boolean;
}

/**
 * The mailing-address step under the credit partner (spec 001 §2 item 6): a county, then the
 * partner's branch offices in it (`dossier.branchOffices`) as a radio list with each office's
 * address. Form data `{ icredit_county_id, icredit_office_id }`; the step schema requires the
 * office, so "next" stays disabled until one is chosen. Another county clears the office.
 */
export default function IcreditOfficeField(props: FieldProps<IcreditOfficeData>) {
  const { formData, onChange, registry, fieldPathId, errorSchema, disabled } = props;
  const { services } = stepContext(registry);
  const { t, places, dossier } = services;
  const countyId = formData?.icredit_county_id ?? null;
  const officeId = formData?.icredit_office_id ?? null;
  const path = fieldPathId.path;

  // A failed load is retried with the retry button.
  const [attempt, setAttempt] = useState(0);
  const key = `${countyId}|${attempt}`;
  const [offices, setOffices] = useState<Offices | null>(null);
  useEffect(() => {
    if (countyId === null) return;
    let live = true;
    dossier.branchOffices(countyId).then(
      (items) => live && setOffices({ key, items, failed: false }),
      () => live && setOffices({ key, items: [], failed: true }),
    );
    return () => {
      live = false;
    };
  }, [dossier, countyId, key]);
  const loaded = countyId !== null && offices?.key === key ? offices : null;

  const countyErrors = errorSchema?.icredit_county_id?.__errors;
  const officeErrors = errorSchema?.icredit_office_id?.__errors;
  const officeErrorId = `${fieldPathId.$id}__icredit_office_id_error`;
  const hintId = `${fieldPathId.$id}__icredit_office_id_hint`;

  return (
    <Stack gap="5" data-testid="icredit-office">
      <CountyPicker
        id={`${fieldPathId.$id}_icredit_county_id`}
        label={t('steps:mailingAddress.county')}
        value={countyId}
        onChange={(id) => {
          if (id === countyId) return;
          onChange(id === null ? {} : { icredit_county_id: id }, path);
        }}
        error={countyErrors?.[0]}
        required
        disabled={disabled}
        places={places}
        t={t}
      />

      {countyId === null ? (
        <Text color="fg.muted">{t('steps:mailingAddress.chooseCountyFirst')}</Text>
      ) : !loaded ? (
        <Stack direction="row" align="center" gap="2" role="status">
          <Spinner size="sm" aria-hidden="true" />
          <Text>{t('steps:mailingAddress.loadingOffices')}</Text>
        </Stack>
      ) : loaded.failed ? (
        <Alert.Root status="error" role="alert">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Description>{t('steps:mailingAddress.officesError')}</Alert.Description>
          </Alert.Content>
          <Button size="sm" variant="outline" onClick={() => setAttempt((n) => n + 1)}>
            {t('steps:mailingAddress.retry')}
          </Button>
        </Alert.Root>
      ) : loaded.items.length === 0 ? (
        <Alert.Root status="info" role="status">
          <Alert.Indicator />
          <Alert.Description>{t('steps:mailingAddress.noOffices')}</Alert.Description>
        </Alert.Root>
      ) : (
        <Fieldset.Root invalid={Boolean(officeErrors?.length)} disabled={disabled}>
          <Fieldset.Legend fontWeight="semibold">{t('steps:mailingAddress.officesLabel')}</Fieldset.Legend>
          <RadioGroup.Root
            value={officeId === null ? null : String(officeId)}
            onValueChange={(e) => e.value && onChange({ icredit_county_id: countyId, icredit_office_id: Number(e.value) }, path)}
            name={`${fieldPathId.$id}_icredit_office_id`}
            aria-describedby={[officeErrors?.length ? officeErrorId : null, officeId === null ? hintId : null].filter(Boolean).join(' ') || undefined}
            disabled={disabled}
          >
            <Stack gap="3" mt="2">
              {loaded.items.map((office) => (
                <RadioCard key={office.id} value={String(office.id)} title={office.name_formatted} selected={office.id === officeId}>
                  <RadioCardLine>{office.address}</RadioCardLine>
                </RadioCard>
              ))}
            </Stack>
          </RadioGroup.Root>
          {officeId === null ? (
            <Text id={hintId} fontSize="sm" color="fg.muted" mt="2">
              {t('steps:mailingAddress.officeRequired')}
            </Text>
          ) : null}
          <FieldErrors id={officeErrorId} errors={officeErrors} />
        </Fieldset.Root>
      )}
    </Stack>
  );
}
