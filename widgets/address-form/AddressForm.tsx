import { useId, useState, type KeyboardEvent } from 'react';
import { Alert, Button, Field, Fieldset, HStack, Input, SimpleGrid } from '@chakra-ui/react';
import type { AddressValues, PlacesService, Profile } from '../types';
import { CityPicker, CountyPicker } from '../county-city';
import { FieldErrors } from '../shared/FieldErrors';

export interface AddressFormProps {
  /** The profile the form starts from (identity data and home address). */
  initial: Profile;
  places: PlacesService;
  /** Translates `steps:address.*` keys. */
  t(key: string, vars?: Record<string, unknown>): string;
  /** Shows (and requires) the place of birth (the identity step's form). */
  withPlaceOfBirth?: boolean;
  /**
   * Saves the values. Rejects with `{ fieldErrors: { field: [messages] } }` for per-field errors
   * (shown under their fields), or with any error whose `message` is shown in an alert.
   */
  onSave(values: AddressValues): Promise<void>;
  onCancel?(): void;
}

type Key = keyof AddressValues;
type TextKey = Exclude<Key, 'county_id' | 'city_id'>;

/** The locale key (`steps:address.<key>`) of each field's label. */
const LABELS: Record<Key, string> = {
  first_name: 'firstName',
  last_name: 'lastName',
  place_of_birth: 'placeOfBirth',
  county_id: 'county',
  city_id: 'city',
  street: 'street',
  number: 'number',
  building: 'building',
  entrance: 'entrance',
  floor: 'floor',
  apartment: 'apartment',
  postal_code: 'postalCode',
};

/** Form order: the first field in it with a server error is scrolled into view. */
const ORDER: Key[] = Object.keys(LABELS) as Key[];

/** Spec 000 §5: required are first name, last name, county, city, street, number (+ place of birth when shown). */
const REQUIRED: Key[] = ['first_name', 'last_name', 'county_id', 'city_id', 'street', 'number'];

const AUTOCOMPLETE: Partial<Record<TextKey, string>> = {
  first_name: 'given-name',
  last_name: 'family-name',
  street: 'address-line1',
  postal_code: 'postal-code',
};

function fromProfile(profile: Profile): AddressValues {
  return {
    first_name: profile.first_name ?? '',
    last_name: profile.last_name ?? '',
    county_id: profile.county_id ?? null,
    city_id: profile.city_id ?? null,
    street: profile.street ?? '',
    number: profile.number ?? '',
    building: profile.building ?? '',
    entrance: profile.entrance ?? '',
    floor: profile.floor ?? '',
    apartment: profile.apartment ?? '',
    postal_code: profile.postal_code ?? '',
    place_of_birth: profile.place_of_birth ?? '',
  };
}

function filled(value: string | number | null): boolean {
  return typeof value === 'number' || (typeof value === 'string' && value.trim() !== '');
}

function trimmed(values: AddressValues): AddressValues {
  const out = { ...values };
  for (const key of ORDER) {
    const value = out[key];
    if (typeof value === 'string') (out as Record<Key, unknown>)[key] = value.trim();
  }
  return out;
}

/**
 * The address form (spec 000 §5 "Address form"): name, home address and, for the identity step,
 * place of birth. "Salvează" stays disabled until the required fields are filled and while saving.
 * Server field errors show under their fields (the first message), the first one scrolled into
 * view and focused; editing a field clears its error. Not a <form>: it lives inside the step's form,
 * so Enter in a text field saves here instead of submitting the step.
 */
export function AddressForm({ initial, places, t, withPlaceOfBirth = false, onSave, onCancel }: AddressFormProps) {
  const base = useId();
  const idOf = (key: Key) => `address-${base}-${key}`;
  const [values, setValues] = useState<AddressValues>(() => fromProfile(initial));
  const [names, setNames] = useState({ county: initial.county ?? '', city: initial.city ?? '' });
  const [errors, setErrors] = useState<Partial<Record<Key, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const shown = (key: string): key is Key => key in LABELS && (key !== 'place_of_birth' || withPlaceOfBirth);
  const required = withPlaceOfBirth ? [...REQUIRED, 'place_of_birth' as const] : REQUIRED;
  const complete = required.every((key) => filled(values[key]));
  const canSave = complete && !saving;

  const update = (changes: Partial<AddressValues>) => {
    setValues((previous) => ({ ...previous, ...changes }));
    setErrors((previous) => {
      const next = { ...previous };
      for (const key of Object.keys(changes) as Key[]) delete next[key];
      return next;
    });
  };

  const save = async () => {
    if (!canSave) return;
    setSaving(true);
    setFailure(null);
    try {
      await onSave(trimmed(values));
    } catch (error) {
      showFailure(error);
    } finally {
      setSaving(false);
    }
  };

  const showFailure = (error: unknown) => {
    const { fieldErrors, message } = (error ?? {}) as { fieldErrors?: Record<string, string[] | string>; message?: string };
    const fallback = (typeof message === 'string' && message) || t('steps:address.saveError');
    if (!fieldErrors || typeof fieldErrors !== 'object') {
      setFailure(fallback);
      return;
    }
    const next: Partial<Record<Key, string>> = {};
    const elsewhere: string[] = [];
    for (const [name, messages] of Object.entries(fieldErrors)) {
      const first = Array.isArray(messages) ? messages[0] : messages;
      if (!first) continue;
      if (shown(name)) next[name] = first;
      else elsewhere.push(first);
    }
    setErrors(next);
    if (elsewhere.length || !Object.keys(next).length) setFailure(elsewhere.length ? elsewhere.join(' ') : fallback);
    const firstKey = ORDER.find((key) => next[key]);
    if (firstKey) {
      const input = document.getElementById(idOf(firstKey));
      input?.scrollIntoView({ block: 'center', behavior: 'smooth' });
      input?.focus({ preventScroll: true });
    }
  };

  /** Enter must not submit the surrounding step form: in a text field it saves the address. */
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    const target = event.target as HTMLElement;
    if (event.key !== 'Enter' || target.tagName !== 'INPUT') return;
    event.preventDefault();
    if (target.getAttribute('role') !== 'combobox') void save();
  };

  const textField = (key: TextKey, isRequired = false) => (
    <Field.Root key={key} id={idOf(key)} invalid={Boolean(errors[key])} required={isRequired}>
      <Field.Label>
        {t(`steps:address.${LABELS[key]}`)}
        <Field.RequiredIndicator />
      </Field.Label>
      <Input
        name={key}
        value={values[key]}
        autoComplete={AUTOCOMPLETE[key] ?? 'off'}
        aria-describedby={errors[key] ? `${idOf(key)}-error` : undefined}
        onChange={(e) => update({ [key]: e.target.value })}
      />
      <FieldErrors id={`${idOf(key)}-error`} errors={errors[key] ? [errors[key]] : undefined} />
    </Field.Root>
  );

  return (
    <Fieldset.Root onKeyDown={onKeyDown} gap="4" minW="0">
      <Fieldset.Legend fontWeight="semibold" fontSize="lg">
        {t('steps:address.title')}
      </Fieldset.Legend>
      <Fieldset.HelperText>{t('steps:address.requiredNote')}</Fieldset.HelperText>
      <Fieldset.Content>
        <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
          {textField('first_name', true)}
          {textField('last_name', true)}
          {withPlaceOfBirth ? textField('place_of_birth', true) : null}
        </SimpleGrid>
        <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
          <CountyPicker
            id={idOf('county_id')}
            label={t('steps:address.county')}
            value={values.county_id}
            valueName={names.county}
            onChange={(id, name) => {
              if (id === values.county_id) return;
              update({ county_id: id, city_id: null });
              setNames({ county: name, city: '' });
            }}
            error={errors.county_id}
            required
            places={places}
            t={t}
          />
          <CityPicker
            id={idOf('city_id')}
            label={t('steps:address.city')}
            countyId={values.county_id}
            value={values.city_id}
            valueName={names.city}
            onChange={(id, name) => {
              if (id === values.city_id) return;
              update({ city_id: id });
              setNames((previous) => ({ ...previous, city: name }));
            }}
            error={errors.city_id}
            required
            places={places}
            t={t}
          />
          {textField('street', true)}
          {textField('number', true)}
          {textField('building')}
          {textField('entrance')}
          {textField('floor')}
          {textField('apartment')}
          {textField('postal_code')}
        </SimpleGrid>
      </Fieldset.Content>

      {failure ? (
        <Alert.Root status="error" role="alert">
          <Alert.Indicator />
          <Alert.Description>{failure}</Alert.Description>
        </Alert.Root>
      ) : null}

      <HStack gap="3" wrap="wrap" justify="flex-end">
        {onCancel ? (
          <Button variant="outline" onClick={onCancel} disabled={saving} flex={{ base: '1', md: 'initial' }}>
            {t('steps:address.cancel')}
          </Button>
        ) : null}
        <Button
          type="button"
          colorPalette="blue"
          onClick={() => void save()}
          disabled={!canSave}
          loading={saving}
          loadingText={t('steps:address.saving')}
          flex={{ base: '1', md: 'initial' }}
        >
          {t('steps:address.save')}
        </Button>
      </HStack>
    </Fieldset.Root>
  );
}

export default AddressForm;
