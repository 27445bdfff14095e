import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { Alert, Button, Field, Fieldset, HStack, Input, SimpleGrid } from '@chakra-ui/react';
import type { AddressValues, MailingAddress, MailingAddressValues, PlacesService, Profile } from '../types';
import { CityPicker, CountyPicker } from '../county-city';
import { FieldErrors } from '../shared/FieldErrors';
import { ADDRESS_FIELD_LABELS, type AddressFieldKey } from './labels';
import userInfo from '../../schemas/user-info.json';

interface CommonProps {
  places: PlacesService;
  /** Translates `steps:address.*` (and, for the correspondence address, `steps:mailingAddress.*`) keys. */
  t(key: string, vars?: Record<string, unknown>): string;
  onCancel?(): void;
}

/** The home address form (identity step): name, home address and, optionally, place of birth. */
export interface AddressFormProps extends CommonProps {
  mode?: 'home';
  /** The profile the form starts from (identity data and home address). */
  initial: Profile;
  /** Shows (and requires) the place of birth (the identity step's form). */
  withPlaceOfBirth?: boolean;
  /**
   * Saves the values. Rejects with `{ fieldErrors: { field: [messages] } }` for per-field errors
   * (shown under their fields), or with any error whose `message` is shown in an alert.
   */
  onSave(values: AddressValues): Promise<void>;
}

/**
 * The correspondence address form (mailing-address step, spec 001 §3 "Mailing address"): contact
 * first and last name, an optional phone, then the address. Optional fields left empty are sent as null.
 */
export interface CorrespondenceAddressFormProps extends CommonProps {
  mode: 'correspondence';
  /** The saved correspondence address, or just the contact names to start from. */
  initial: Partial<MailingAddress>;
  /** As for the home address; field errors are keyed like MailingAddressValues (`contact_first_name`, …). */
  onSave(values: MailingAddressValues): Promise<void>;
}

type Key = AddressFieldKey;
type TextKey = Exclude<Key, 'county_id' | 'city_id'>;
type Values = Partial<Record<TextKey, string>> & { county_id: number | null; city_id: number | null };

/** The locale key of each field's label. */
const LABELS = ADDRESS_FIELD_LABELS;

/**
 * What the server requires of an address (schemas/user-info.json `required`, the body schema of
 * `POST /api/registration/update-user-info`; spec 000 §5: first name, last name, county, city, street,
 * number): the form asks the same before "Salvează" is enabled. The correspondence address
 * (`POST /api/mailing-address`) asks the same of its contact names and its address; its phone is
 * optional. The place of birth is the form's own rule: required when shown (the identity step).
 */
const REQUIRED = new Set<string>(userInfo.required);

/** The address part, shared by both forms, in form order. */
const ADDRESS: Key[] = ['county_id', 'city_id', 'street', 'number', 'building', 'entrance', 'floor', 'apartment', 'postal_code'];
const ADDRESS_TEXT = ADDRESS.filter((key): key is TextKey => key !== 'county_id' && key !== 'city_id');
const requiredAddress = ADDRESS.filter((key) => REQUIRED.has(key));
const namesRequired = REQUIRED.has('first_name') && REQUIRED.has('last_name');

/**
 * Each form's fields in form order (the first field in it with a server error is scrolled into
 * view) and its required ones.
 */
const FORMS = {
  home: {
    names: ['first_name', 'last_name', 'place_of_birth'] as TextKey[],
    required: userInfo.required as Key[],
    legend: 'steps:address.title',
  },
  correspondence: {
    names: ['contact_first_name', 'contact_last_name', 'contact_phone'] as TextKey[],
    required: (namesRequired ? (['contact_first_name', 'contact_last_name'] as Key[]) : []).concat(requiredAddress),
    legend: 'steps:mailingAddress.formTitle',
  },
};

const AUTOCOMPLETE: Partial<Record<TextKey, string>> = {
  first_name: 'given-name',
  last_name: 'family-name',
  contact_first_name: 'given-name',
  contact_last_name: 'family-name',
  contact_phone: 'tel',
  street: 'address-line1',
  postal_code: 'postal-code',
};

/** A form's starting values from the profile or a saved correspondence address ('' or null for what is missing). */
function initialValues(form: (typeof FORMS)[keyof typeof FORMS], source: Partial<Record<Key, string | number | null>>): Values {
  const text = [...form.names, ...ADDRESS_TEXT];
  return {
    ...Object.fromEntries(text.map((key) => [key, String(source[key] ?? '')])),
    county_id: typeof source.county_id === 'number' ? source.county_id : null,
    city_id: typeof source.city_id === 'number' ? source.city_id : null,
  };
}

function filled(value: string | number | null | undefined): boolean {
  return typeof value === 'number' || (typeof value === 'string' && value.trim() !== '');
}

function trimmed(values: Values): Values {
  const out = { ...values };
  for (const key of Object.keys(out) as Key[]) {
    const value = out[key];
    if (typeof value === 'string') (out as Record<Key, unknown>)[key] = value.trim();
  }
  return out;
}

/** The home address as `POST /api/registration/update-user-info` takes it: every text field, empty when left so. */
function toHomeValues(values: Values): AddressValues {
  const text = Object.fromEntries([...FORMS.home.names, ...ADDRESS_TEXT].map((key) => [key, values[key] ?? '']));
  return { ...text, county_id: values.county_id, city_id: values.city_id } as AddressValues;
}

/** The correspondence address as `POST /api/mailing-address` takes it: an optional field left empty is null. */
function toCorrespondenceValues(values: Values): MailingAddressValues {
  const { required, names } = FORMS.correspondence;
  const text = Object.fromEntries([...names, ...ADDRESS_TEXT].map((key) => [key, required.includes(key) ? (values[key] ?? '') : values[key] || null]));
  return { ...text, county_id: values.county_id, city_id: values.city_id } as MailingAddressValues;
}

/**
 * The address form (spec 000 §5 "Address form"): name, home address and, for the identity step,
 * place of birth; or, with `mode: 'correspondence'`, the correspondence address of the
 * mailing-address step (contact names, optional phone, address). "Salvează" stays disabled until
 * the required fields are filled and while saving.
 * Server field errors show under their fields (the first message), the first one scrolled into
 * view and focused; editing a field clears its error. Not a <form>: it lives inside the step's form,
 * so Enter in a text field saves here instead of submitting the step.
 */
export function AddressForm(props: AddressFormProps | CorrespondenceAddressFormProps) {
  const { places, t, onCancel } = props;
  const correspondence = props.mode === 'correspondence';
  const withPlaceOfBirth = props.mode === 'correspondence' ? false : (props.withPlaceOfBirth ?? false);
  const form = FORMS[correspondence ? 'correspondence' : 'home'];
  const base = useId();
  const idOf = (key: Key) => `address-${base}-${key}`;
  const [values, setValues] = useState<Values>(() => initialValues(form, props.initial as Partial<Record<Key, string | number | null>>));
  const [names, setNames] = useState({ county: props.initial.county ?? '', city: props.initial.city ?? '' });
  /** The postal code the last chosen locality filled in (replaced by the next one's, unlike a typed code). */
  const autoPostal = useRef('');
  const [errors, setErrors] = useState<Partial<Record<Key, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const nameFields = form.names.filter((key) => key !== 'place_of_birth' || withPlaceOfBirth);
  const order: Key[] = [...nameFields, ...ADDRESS];
  const shown = (key: string): key is Key => order.includes(key as Key);
  const required: Key[] = withPlaceOfBirth ? [...form.required, 'place_of_birth'] : form.required;
  const complete = required.every((key) => filled(values[key]));
  const canSave = complete && !saving;

  const update = (changes: Partial<Values>) => {
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
      const clean = trimmed(values);
      if (props.mode === 'correspondence') await props.onSave(toCorrespondenceValues(clean));
      else await props.onSave(toHomeValues(clean));
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
    const firstKey = order.find((key) => next[key]);
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

  const textField = (key: TextKey, isRequired = required.includes(key)) => (
    <Field.Root key={key} id={idOf(key)} invalid={Boolean(errors[key])} required={isRequired}>
      <Field.Label>
        {t(LABELS[key])}
        <Field.RequiredIndicator />
      </Field.Label>
      <Input
        name={key}
        value={values[key] ?? ''}
        type={key === 'contact_phone' ? 'tel' : 'text'}
        inputMode={key === 'contact_phone' || key === 'postal_code' ? 'numeric' : undefined}
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
        {t(form.legend)}
      </Fieldset.Legend>
      <Fieldset.HelperText>{t('steps:address.requiredNote')}</Fieldset.HelperText>
      <Fieldset.Content>
        <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
          {nameFields.map((key) => textField(key))}
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
            required={required.includes('county_id')}
            places={places}
            t={t}
          />
          <CityPicker
            id={idOf('city_id')}
            label={t('steps:address.city')}
            countyId={values.county_id}
            value={values.city_id}
            valueName={names.city}
            onChange={(id, name, place) => {
              if (id === values.city_id) return;
              // A village's postal code fills the field unless the applicant typed another one.
              const postal = place?.postal_code ?? '';
              const typed = values.postal_code && values.postal_code !== autoPostal.current;
              autoPostal.current = typed ? autoPostal.current : postal;
              update(typed ? { city_id: id } : { city_id: id, postal_code: postal });
              setNames((previous) => ({ ...previous, city: name }));
            }}
            error={errors.city_id}
            required={required.includes('city_id')}
            places={places}
            t={t}
          />
          {ADDRESS_TEXT.map((key) => textField(key))}
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
