import { useMemo, useState } from 'react';
import { Button, Field, NativeSelect, Stack } from '@chakra-ui/react';
import type { ErrorSchema, RJSFSchema, UiSchema, ValidatorType } from '@rjsf/utils';
import { StepForm } from '@/engine/StepForm';
import { isApiError } from '@/shared/api/client';
import { FlashAlert } from '@/shared/components/FlashAlert';
import { todayInRomania } from '@/core/timeline';
import type { FieldErrors } from '@/core/api-types';
import type { TimelineTypeSchema } from './api';
import type { ConsoleT } from './i18n';

/**
 * The browser does not check a timeline item: the server does, against the same JSON Schema, and
 * answers 422 with a message per field that the form shows under each field. (A validator compiled
 * in the browser would need `new Function`, which the app's CSP forbids; the step validators are
 * compiled at build time, these schemas come from the server.)
 */
export const serverValidator: ValidatorType = {
  validateFormData: () => ({ errors: [], errorSchema: {} }),
  isValid: () => true,
  rawValidation: () => ({ errors: undefined, validationError: undefined }),
};

type Properties = Record<string, Record<string, unknown>>;

/** The type's schema as a form: without `type` (chosen above), the fields titled in the console's language, the date first. */
export function formSchema(schema: Record<string, unknown>, t: ConsoleT): { schema: RJSFSchema; uiSchema: UiSchema; defaults: Record<string, unknown> } {
  const properties = { ...((schema.properties ?? {}) as Properties) };
  delete properties.type;
  const titled: Properties = {};
  const defaults: Record<string, unknown> = { date: todayInRomania() };
  const required = ((schema.required ?? []) as string[]).filter((name) => name !== 'type');
  for (const [name, property] of Object.entries(properties)) {
    titled[name] = { ...property, title: t(`timelineFields.${name}`, { defaultValue: name }) };
    // A required yes/no starts as "no": an unticked box is an answer, not a missing field.
    if (property.type === 'boolean' && property.default === undefined && required.includes(name)) defaults[name] = false;
  }
  return {
    schema: { type: 'object', required, properties: titled } as RJSFSchema,
    uiSchema: { 'ui:order': ['date', '*'], 'ui:submitButtonOptions': { norender: true } },
    defaults,
  };
}

function errorSchemaOf(errors: FieldErrors): ErrorSchema {
  const out: Record<string, { __errors: string[] }> = {};
  for (const [field, messages] of Object.entries(errors)) out[field] = { __errors: messages };
  return out as ErrorSchema;
}

export function TimelineForm({ types, t, onAdd, idPrefix }: { types: TimelineTypeSchema[]; t: ConsoleT; onAdd: (item: Record<string, unknown>) => Promise<void>; idPrefix: string }) {
  const [type, setType] = useState(types[0]?.type ?? '');
  const selected = types.find((x) => x.type === type);
  const form = useMemo(() => (selected ? formSchema(selected.schema, t) : null), [selected, t]);
  const [data, setData] = useState<Record<string, unknown>>(form?.defaults ?? {});
  const [errors, setErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const selectId = `${idPrefix}-type`;

  const choose = (next: string) => {
    setType(next);
    const chosen = types.find((x) => x.type === next);
    setData(chosen ? formSchema(chosen.schema, t).defaults : {});
    setErrors({});
    setMessage(null);
  };

  const submit = async (formData: Record<string, unknown>) => {
    setBusy(true);
    setErrors({});
    setMessage(null);
    try {
      await onAdd({ ...formData, type });
      choose(type);
    } catch (error) {
      const fieldErrors = isApiError(error) ? error.fieldErrors : {};
      setErrors(fieldErrors);
      const outside = Object.entries(fieldErrors).filter(([field]) => !(field in ((form?.schema.properties as object) ?? {})));
      setMessage(outside.length ? outside.flatMap(([, m]) => m).join(' ') : isApiError(error) && error.message && !Object.keys(fieldErrors).length ? error.message : Object.keys(fieldErrors).length ? null : t('actions.failed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack gap="4">
      <Field.Root>
        <Field.Label htmlFor={selectId}>{t('actions.timelineType')}</Field.Label>
        <NativeSelect.Root>
          <NativeSelect.Field id={selectId} value={type} onChange={(e) => choose(e.currentTarget.value)}>
            {types.map((x) => (
              <option key={x.type} value={x.type}>
                {t(`pages:status.items.${x.type}.title`, { defaultValue: x.type })}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </Field.Root>
      {form && (
        <StepForm
          key={type}
          idPrefix={`${idPrefix}-${type}`}
          schema={form.schema}
          uiSchema={form.uiSchema}
          formData={data}
          validator={serverValidator}
          extraErrors={errorSchemaOf(errors)}
          showErrorList={false}
          noHtml5Validate
          onChange={(e) => setData((e.formData ?? {}) as Record<string, unknown>)}
          onSubmit={(e) => void submit((e.formData ?? {}) as Record<string, unknown>)}
          disabled={busy}
        >
          {message && <FlashAlert title={message} />}
          <Button type="submit" mt="4" disabled={busy}>
            {t('actions.timelineAdd')}
          </Button>
        </StepForm>
      )}
    </Stack>
  );
}
