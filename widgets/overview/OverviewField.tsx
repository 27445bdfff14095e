import { useEffect } from 'react';
import { Heading, Stack, Text } from '@chakra-ui/react';
import type { FieldProps } from '@rjsf/utils';
import { stepContext, type StepLists } from '../types';
import { CaenRows } from './CaenRows';
import { EditableValue, ReadOnlyValue } from './EditableValue';
import { OfficeChoice } from './OfficeChoice';
import type { AddressType, OverviewOptions } from './overview-rules';
import { useCaenCodes } from './useCaenCodes';
import { useHomeOffice } from './useHomeOffice';
import { useProfileEdits } from './useProfileEdits';

export type { AddressType } from './overview-rules';

interface OverviewFormData {
  address_type?: AddressType;
}

/** Asked for with the step's request (issue 14): the applicant's data and codes are there when the step is drawn. */
export const prefetch = (ahead: StepLists) => ahead.overview?.() ?? Promise.resolve();

/**
 * The overview step "Dosarul tău este gata" (spec 001 §2 item 4, §4 Office type, §5 CAEN): the
 * PFA name, the names and CNP edited inline (`caen.updateFormData`, the server's first message
 * under the field), phone and e-mail read-only, the CAEN rows (primary first, at most 5, locked
 * codes of the partner) and the registered-office choice. Form data `{ address_type }`.
 */
export default function OverviewField(props: FieldProps<OverviewFormData>) {
  const { formData, onChange, registry, uiSchema, fieldPathId, errorSchema, disabled } = props;
  const ctx = stepContext(registry);
  const { services } = ctx;
  const { t, caen } = services;
  const options = (uiSchema?.['ui:options'] ?? {}) as OverviewOptions;
  const maxCodes = options.maxCodes ?? 0;
  const byOperator = options.codesByOperator === true;
  const idBase = fieldPathId.$id;

  // Codes saved clear the step's server error about them (the send's "Alege codul CAEN principal.").
  const clearServerError = ctx.clearServerError;
  const codes = useCaenCodes({ caen, t, notify: services.notify, lockedCodes: options.lockedCodes ?? [], maxCodes, byOperator, onSaved: () => clearServerError?.('codes') });
  const { profile, save: saveProfile } = useProfileEdits(ctx.profile, caen, services, ctx.reloadRequest);
  const office = useHomeOffice({ value: formData?.address_type, onChange, path: fieldPathId.path, caen, leaveFor: ctx.leaveFor, t, leaveReason: options.leaveReason ?? '' });
  const { data } = codes;
  const editable = !disabled && data?.editable !== false;

  // The send was refused for the codes: show them as the server has them, the error under the field.
  const codesError = (errorSchema as { codes?: { __errors?: string[] } } | undefined)?.codes?.__errors?.[0];
  const reloadCodes = codes.reload;
  useEffect(() => {
    if (codesError) void reloadCodes();
    // When a new error arrives.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [codesError]);

  // "Pasul următor" waits for a primary code, unless operators set the codes (activity unknown, spec 001 §6),
  // and for the codes' save on its way (the credit partner's preset on arrival, a code just chosen): a
  // send racing that write would find the request changed and stay on the step.
  const blockNext = ctx.blockNext;
  const needsPrimary = Boolean(data) && editable && !byOperator && !codes.codes.length;
  const nextReason = codes.saving ? t('steps:overview.savingCodes') : needsPrimary ? t('steps:overview.nextNeedsPrimary') : null;
  useEffect(() => {
    blockNext?.(nextReason);
  }, [nextReason, blockNext]);
  const pfaName = data?.company_name || ['PFA', profile.last_name, profile.first_name].filter(Boolean).join(' ');

  return (
    <Stack gap="8" data-testid="overview">
      {codes.loadFailed ? (
        <Text role="alert" color="fg.error">
          {t('steps:overview.loadError')}
        </Text>
      ) : null}
      {data && !data.editable ? <Text color="fg.muted">{t('steps:overview.notEditable')}</Text> : null}

      <Stack gap="4" as="section" aria-labelledby={`${idBase}-general`}>
        <Heading as="h2" size="md" id={`${idBase}-general`}>
          {t('steps:overview.generalInfo')}
        </Heading>
        <ReadOnlyValue label={t('steps:overview.pfaName')} value={pfaName} hint={t('steps:overview.readOnly')} />
        {(['last_name', 'first_name', 'personal_code'] as const).map((field) => (
          <EditableValue
            key={field}
            id={`${idBase}-${field}`}
            field={field}
            label={t(`steps:overview.${field === 'last_name' ? 'lastName' : field === 'first_name' ? 'firstName' : 'personalCode'}`)}
            value={profile[field] ?? ''}
            editable={editable}
            inputMode={field === 'personal_code' ? 'numeric' : undefined}
            maxLength={field === 'personal_code' ? 13 : 60}
            t={t}
            onSave={(value) => saveProfile(field, value).then(() => clearServerError?.(field))}
          />
        ))}
        <ReadOnlyValue label={t('steps:overview.phone')} value={data?.phone ?? ''} hint={t('steps:overview.readOnly')} />
        <ReadOnlyValue label={t('steps:overview.email')} value={data?.email ?? ''} hint={t('steps:overview.readOnly')} />
      </Stack>

      <Stack gap="4" as="section" aria-labelledby={`${idBase}-caen`}>
        <Heading as="h2" size="md" id={`${idBase}-caen`}>
          {t('steps:overview.caenTitle')}
        </Heading>
        <CaenRows
          codes={codes}
          search={caen.search}
          t={t}
          maxCodes={maxCodes}
          byOperator={byOperator}
          editable={editable}
          idBase={idBase}
          serverError={codesError}
        />
      </Stack>

      <OfficeChoice
        value={formData?.address_type}
        office={office}
        errors={errorSchema?.address_type?.__errors}
        errorId={`${idBase}__address_type_error`}
        name={`${idBase}_address_type`}
        editable={editable}
        t={t}
      />
    </Stack>
  );
}
