import { useEffect, useRef, useState } from 'react';
import { Box, Button, Dialog, Field, Fieldset, Heading, HStack, Input, Portal, RadioGroup, Stack, Text } from '@chakra-ui/react';
import type { FieldProps } from '@rjsf/utils';
import { stepContext, type CaenCode, type OverviewData, type OverviewUpdate, type Profile, type StepServices } from '../types';
import { CaenSearch, caenLabel, CAEN_PAGE_SIZE, type CaenSearchTexts } from '../caen-search';
import { FieldErrors } from '../shared/FieldErrors';

/** Office type (spec 001 §4): 1 at the product, 2 at home. */
export type AddressType = 1 | 2;

interface OverviewFormData {
  address_type?: AddressType;
}

interface Options {
  /** Codes preset and locked (the credit partner: 8291, 6619), first and in this order. */
  lockedCodes?: string[];
  /** At most 5 (spec 001 §5). */
  maxCodes?: number;
  /** Operators add the codes (activity unknown): the block is read-only. */
  codesByOperator?: boolean;
}

/** Where leaving for the competitor services ends: the questionnaire's dead-end info page (a route name). */
export const LEAVE_ROUTE = 'register-questionnaire-info';
export const LEAVE_REASON = 'sediu-la-client';
const MAX_CODES = 5;

type ProfileField = 'last_name' | 'first_name' | 'personal_code';

/** The first message the server gave for a field (`payload.field[0]`, or `payload.value[0]`), else its message. */
function serverMessage(error: unknown, field: string, fallback: string): string {
  const e = error as { fieldErrors?: Record<string, string[]>; message?: string } | null;
  return e?.fieldErrors?.[field]?.[0] ?? e?.fieldErrors?.value?.[0] ?? (e?.message || fallback);
}

const plain = (codes: OverviewData['codes']): CaenCode[] => codes.map(({ id, code, name }) => ({ id, code, name }));

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
  const options = (uiSchema?.['ui:options'] ?? {}) as Options;
  const lockedCodes = options.lockedCodes ?? [];
  const maxCodes = Math.min(options.maxCodes ?? MAX_CODES, MAX_CODES);
  const byOperator = options.codesByOperator === true;
  const path = fieldPathId.path;

  const [data, setData] = useState<OverviewData | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [profile, setProfile] = useState<Profile>(ctx.profile);
  const [codes, setCodes] = useState<CaenCode[]>([]);
  const [codesError, setCodesError] = useState<string | null>(null);
  const [codesSaved, setCodesSaved] = useState(false);
  const [adding, setAdding] = useState(false);
  const [needsPrimary, setNeedsPrimary] = useState(false);
  const [dialogOpen, setDialogOpen] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const [leaveError, setLeaveError] = useState<string | null>(null);
  const live = useRef(true);
  useEffect(() => {
    live.current = true;
    return () => {
      live.current = false;
    };
  }, []);

  const editable = !disabled && data?.editable !== false;

  async function saveCodes(next: CaenCode[], previous: CaenCode[]) {
    setCodes(next);
    setCodesError(null);
    setCodesSaved(false);
    try {
      const result = await caen.updateFormData({ codes: next.map((c) => c.id) });
      if (!live.current) return;
      setCodes(plain(result.codes));
      setCodesSaved(true);
      services.notify?.('success', t('steps:overview.saved'));
    } catch (error) {
      if (!live.current) return;
      setCodes(previous);
      setCodesError(serverMessage(error, 'codes', t('steps:overview.saveError')));
    }
  }

  // The request's codes, PFA name, e-mail and phone; the partner's locked codes are preset.
  useEffect(() => {
    let cancelled = false;
    caen
      .overview()
      .then(async (loaded) => {
        if (cancelled) return;
        setData(loaded);
        const current = plain(loaded.codes);
        setCodes(current);
        const missing = lockedCodes.some((code, i) => current[i]?.code !== code);
        if (!lockedCodes.length || byOperator || !missing || !loaded.editable) return;
        const found = await Promise.all(
          lockedCodes.map((code) => caen.search(code, 0, CAEN_PAGE_SIZE).then((page) => page.data.find((c) => c.code === code) ?? null)),
        );
        if (cancelled || found.some((c) => !c)) return;
        const locked = found as CaenCode[];
        const rest = current.filter((c) => !lockedCodes.includes(c.code));
        await saveCodes([...locked, ...rest].slice(0, maxCodes), current);
      })
      .catch(() => !cancelled && setLoadFailed(true));
    return () => {
      cancelled = true;
    };
    // Loaded once per step.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // Office at the product unless chosen otherwise.
  useEffect(() => {
    if (formData?.address_type === undefined) onChange({ address_type: 1 }, path);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  async function saveProfile(field: ProfileField, value: string) {
    const result = await caen.updateFormData({ [field]: value } as OverviewUpdate);
    if (!live.current) return;
    setProfile((p) => ({ ...p, ...result.profile }));
    services.notify?.('success', t('steps:overview.saved'));
    void ctx.reloadRequest().catch(() => undefined);
  }

  const isLocked = (code: CaenCode | undefined) => Boolean(code && lockedCodes.includes(code.code));
  const replaceAt = (index: number, code: CaenCode) => {
    const next = [...codes];
    next[index] = code;
    void saveCodes(next, codes);
  };
  const removeAt = (index: number) => void saveCodes(codes.filter((_, i) => i !== index), codes);
  const addSecondary = () => {
    if (!codes[0]) {
      setNeedsPrimary(true);
      return;
    }
    setNeedsPrimary(false);
    setAdding(true);
  };

  const searchTexts: CaenSearchTexts = {
    placeholder: t('steps:overview.searchPlaceholder'),
    hint: t('steps:overview.searchHint'),
    empty: t('steps:overview.searchEmpty'),
    loading: t('steps:overview.searchLoading'),
    loadingMore: t('steps:overview.searchLoadingMore'),
    failed: t('steps:overview.searchFailed'),
    toggle: t('steps:overview.searchToggle'),
  };
  const rowLabel = (index: number) => (index === 0 ? t('steps:overview.primary') : t('steps:overview.secondary', { n: index }));
  const chosenIds = codes.map((c) => c.id);

  const choose = (value: AddressType) => {
    onChange({ address_type: value }, path);
    if (value === 2) {
      setLeaveError(null);
      setDialogOpen(true);
    }
  };
  const keep = () => {
    setDialogOpen(false);
    onChange({ address_type: 1 }, path);
  };
  const leave = async () => {
    setLeaving(true);
    setLeaveError(null);
    try {
      await caen.markAsLost(LEAVE_REASON);
      ctx.navigate(LEAVE_ROUTE);
    } catch {
      if (live.current) setLeaveError(t('steps:overview.leaveError'));
    } finally {
      if (live.current) setLeaving(false);
    }
  };

  const pfaName = data?.company_name || ['PFA', profile.last_name, profile.first_name].filter(Boolean).join(' ');
  const officeErrors = errorSchema?.address_type?.__errors;
  const officeErrorId = `${fieldPathId.$id}__address_type_error`;
  const idBase = fieldPathId.$id;

  return (
    <Stack gap="8" data-testid="overview">
      {loadFailed ? (
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
            onSave={(value) => saveProfile(field, value)}
          />
        ))}
        <ReadOnlyValue label={t('steps:overview.phone')} value={data?.phone ?? ''} hint={t('steps:overview.readOnly')} />
        <ReadOnlyValue label={t('steps:overview.email')} value={data?.email ?? ''} hint={t('steps:overview.readOnly')} />
      </Stack>

      <Stack gap="4" as="section" aria-labelledby={`${idBase}-caen`}>
        <Heading as="h2" size="md" id={`${idBase}-caen`}>
          {t('steps:overview.caenTitle')}
        </Heading>
        {byOperator ? (
          codes.length ? (
            <Stack as="ul" gap="1" listStyleType="none">
              {codes.map((c, i) => (
                <Text as="li" key={c.id}>
                  {rowLabel(i)}: {caenLabel(c)}
                </Text>
              ))}
            </Stack>
          ) : null
        ) : (
          <>
            <Text color="fg.muted">{t('steps:overview.caenIntro', { max: maxCodes })}</Text>
            {(codes.length ? codes : [null]).map((code, index) => (
              <HStack key={code?.id ?? 'empty-primary'} align="flex-end" gap="2" data-testid={`caen-row-${index}`}>
                <Box flex="1">
                  {code && isLocked(code) ? (
                    <ReadOnlyValue label={rowLabel(index)} value={caenLabel(code)} hint={t('steps:overview.lockedCode')} showHint />
                  ) : (
                    <CaenSearch
                      id={`${idBase}-caen-${index}`}
                      label={rowLabel(index)}
                      value={code}
                      onChange={(next) => replaceAt(index, next)}
                      search={caen.search}
                      texts={searchTexts}
                      excludeIds={chosenIds}
                      disabled={!editable}
                    />
                  )}
                </Box>
                {index > 0 && code && !isLocked(code) && editable ? (
                  <Button variant="outline" colorPalette="red" onClick={() => removeAt(index)} aria-label={t('steps:overview.removeCode', { code: code.code })}>
                    {t('steps:overview.removeCode', { code: code.code })}
                  </Button>
                ) : null}
              </HStack>
            ))}
            {adding && codes.length < maxCodes ? (
              <CaenSearch
                id={`${idBase}-caen-new`}
                label={rowLabel(codes.length)}
                value={null}
                onChange={(next) => {
                  setAdding(false);
                  void saveCodes([...codes, next], codes);
                }}
                search={caen.search}
                texts={searchTexts}
                excludeIds={chosenIds}
                disabled={!editable}
              />
            ) : null}
            {editable ? (
              <Box>
                <Button variant="outline" onClick={addSecondary} disabled={codes.length >= maxCodes || adding}>
                  {t('steps:overview.addSecondary')}
                </Button>
              </Box>
            ) : null}
            {codes.length >= maxCodes ? <Text color="fg.muted">{t('steps:overview.maxCodesReached', { max: maxCodes })}</Text> : null}
            {needsPrimary && !codes[0] ? (
              <Text role="alert" color="fg.error">
                {t('steps:overview.secondaryNeedsPrimary')}
              </Text>
            ) : null}
            {codesError ? (
              <Text role="alert" color="fg.error">
                {codesError}
              </Text>
            ) : codesSaved ? (
              <Text role="status" color="fg.success">
                {t('steps:overview.saved')}
              </Text>
            ) : null}
          </>
        )}
      </Stack>

      <Fieldset.Root invalid={Boolean(officeErrors?.length)} disabled={!editable}>
        <Fieldset.Legend>
          <Heading as="h2" size="md">
            {t('steps:overview.officeTitle')}
          </Heading>
        </Fieldset.Legend>
        <RadioGroup.Root
          value={formData?.address_type ? String(formData.address_type) : null}
          onValueChange={(e) => e.value && choose(Number(e.value) as AddressType)}
          name={`${idBase}_address_type`}
          aria-describedby={officeErrors?.length ? officeErrorId : undefined}
          disabled={!editable}
        >
          <Stack gap="3" mt="2">
            <RadioGroup.Item value="1" alignItems="flex-start">
              <RadioGroup.ItemHiddenInput />
              <RadioGroup.ItemIndicator />
              <RadioGroup.ItemText>
                <Text as="span" display="block">
                  {t('steps:overview.officeProduct')}
                </Text>
                <Text as="span" display="block" color="fg.muted" fontSize="sm">
                  {t('steps:overview.officeProductHint')}
                </Text>
              </RadioGroup.ItemText>
            </RadioGroup.Item>
            <RadioGroup.Item value="2" alignItems="flex-start">
              <RadioGroup.ItemHiddenInput />
              <RadioGroup.ItemIndicator />
              <RadioGroup.ItemText>{t('steps:overview.officeHome')}</RadioGroup.ItemText>
            </RadioGroup.Item>
          </Stack>
        </RadioGroup.Root>
        <FieldErrors id={officeErrorId} errors={officeErrors} />
      </Fieldset.Root>

      <Dialog.Root open={dialogOpen} onOpenChange={(e) => !e.open && !leaving && keep()} role="alertdialog" placement="center">
        <Portal>
          <Dialog.Backdrop />
          <Dialog.Positioner>
            <Dialog.Content>
              <Dialog.Header>
                <Dialog.Title>{t('steps:overview.homeDialogTitle')}</Dialog.Title>
              </Dialog.Header>
              <Dialog.Body>
                <Stack gap="3">
                  <Text>{t('steps:overview.homeDialogText')}</Text>
                  <Text>{t('steps:overview.homeDialogLeaveText')}</Text>
                  {leaveError ? (
                    <Text role="alert" color="fg.error">
                      {leaveError}
                    </Text>
                  ) : null}
                </Stack>
              </Dialog.Body>
              <Dialog.Footer flexWrap="wrap" gap="2">
                <Button colorPalette="blue" onClick={keep} disabled={leaving}>
                  {t('steps:overview.keepOffice')}
                </Button>
                <Button variant="outline" onClick={() => void leave()} loading={leaving}>
                  {t('steps:overview.leave')}
                </Button>
              </Dialog.Footer>
            </Dialog.Content>
          </Dialog.Positioner>
        </Portal>
      </Dialog.Root>
    </Stack>
  );
}

/** A value that cannot be changed here; `hint` says why (read aloud, shown when `showHint`). */
function ReadOnlyValue({ label, value, hint, showHint }: { label: string; value: string; hint?: string; showHint?: boolean }) {
  return (
    <Box>
      <Text fontWeight="semibold" fontSize="sm">
        {label}
      </Text>
      <Text>{value || '—'}</Text>
      {hint ? (
        <Text srOnly={!showHint} fontSize="sm" color="fg.muted">
          {hint}
        </Text>
      ) : null}
    </Box>
  );
}

interface EditableValueProps {
  id: string;
  field: ProfileField;
  label: string;
  value: string;
  editable: boolean;
  inputMode?: 'numeric';
  maxLength: number;
  t: StepServices['t'];
  onSave(value: string): Promise<void>;
}

/** A profile value with "Modifică": edit, save through the service, success text or the server's first message under the field. */
function EditableValue({ id, field, label, value, editable, inputMode, maxLength, t, onSave }: EditableValueProps) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(value);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);
  const inputId = `${id}-input`;
  const errorId = `${id}-error`;

  const start = () => {
    setDraft(value);
    setError(null);
    setSaved(false);
    setEditing(true);
  };
  const save = async () => {
    setBusy(true);
    setError(null);
    try {
      await onSave(draft.trim());
      setEditing(false);
      setSaved(true);
    } catch (e) {
      setError(serverMessage(e, field, t('steps:overview.saveError')));
    } finally {
      setBusy(false);
    }
  };

  if (!editing) {
    return (
      <Box data-testid={`overview-${field}`}>
        <Text fontWeight="semibold" fontSize="sm">
          {label}
        </Text>
        <HStack justify="space-between" gap="2" wrap="wrap">
          <Text>{value || '—'}</Text>
          {editable ? (
            <Button size="sm" variant="ghost" colorPalette="blue" onClick={start} aria-label={t('steps:overview.editField', { field: label })}>
              {t('steps:overview.edit')}
            </Button>
          ) : null}
        </HStack>
        {saved ? (
          <Text role="status" color="fg.success" fontSize="sm">
            {t('steps:overview.saved')}
          </Text>
        ) : null}
      </Box>
    );
  }
  return (
    <Box data-testid={`overview-${field}`}>
      <Field.Root invalid={Boolean(error)}>
        <Field.Label htmlFor={inputId}>{label}</Field.Label>
        <Input
          id={inputId}
          value={draft}
          inputMode={inputMode}
          maxLength={maxLength}
          autoFocus
          aria-describedby={error ? errorId : undefined}
          onChange={(e) => {
            setDraft(e.target.value);
            setError(null);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              void save();
            } else if (e.key === 'Escape') setEditing(false);
          }}
        />
      </Field.Root>
      <FieldErrors id={errorId} errors={error ? [error] : undefined} />
      <HStack gap="2" mt="2">
        <Button size="sm" colorPalette="blue" onClick={() => void save()} loading={busy}>
          {t('steps:overview.save')}
        </Button>
        <Button size="sm" variant="outline" onClick={() => setEditing(false)} disabled={busy}>
          {t('steps:overview.cancel')}
        </Button>
      </HStack>
    </Box>
  );
}
