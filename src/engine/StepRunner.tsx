import { Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Box, Button, HStack, Spinner, Stack, Text } from '@chakra-ui/react';
import type { RJSFSchema, UiSchema, ValidatorType } from '@rjsf/utils';
import { planSubmit, readPointer, requestContext, storedStepData, type FlowStep, type ResolvedFlow, type SubmitPlan } from '@/core/flow';
import { routePath } from '@/core/routes';
import type { RegistrationRequest } from '@/core/api-types';
import { fields, widgets } from '../../widgets/registry';
import type { StepFormContext, StepServices } from '../../widgets/types';
import { isEngineError, type EngineApi } from './api';
import { StepForm } from './StepForm';
import { StepIntro } from './StepIntro';
import { toErrorSchema, translateUiSchema } from './translate-ui';
import { loadedValidator, stepSchema, stepValidator } from './validators';

export interface StepRunnerProps {
  flow: ResolvedFlow;
  step: FlowStep;
  request: RegistrationRequest;
  api: EngineApi;
  services: StepServices;
  /** The server answered with a request (after a submit, a previous or a 409). */
  onRequest(request: RegistrationRequest, options?: { stale?: boolean }): void;
  /** Leave the wizard for a named route's path (a submit branch's `navigate`). */
  onLeave(path: string): void;
  /** Leave the app for another site (a `submit.then` answer's address: the payment page). */
  onRedirect(url: string): void;
  /** The form's first data instead of what the request stores (the preview: the step's example). */
  initialFormData?: Record<string, unknown>;
  /**
   * The staff preview (/staff/preview): the step renders as the applicant sees it, but "Pasul următor"
   * is never held back (it shows the field errors) and hands its plan here instead of calling the
   * API; "Înapoi" calls `previous`. Nothing is written.
   */
  preview?: StepPreview;
}

export interface StepPreview {
  /** The step's schema as it is on disk now: when it differs from the built one, no precompiled validator knows it (the server validates). */
  schema?: RJSFSchema;
  /** Validates the plan; rejects like the API (an EngineError with field errors for a 422). `files`: the fields a widget attached a file to. */
  submit(plan: SubmitPlan, files: string[]): Promise<void>;
  previous(): void;
}

/**
 * Renders one step of a flow file: its JSON Schema with rjsf (the narrow Chakra theme of StepForm.tsx), its widgets from
 * widgets/registry.ts, its copy from the locale files, and submits to the step's endpoint.
 * "Next" stays disabled until the form satisfies the step schema (precompiled validator); server
 * 422 errors show under their fields and clear when the field changes.
 */
export function StepRunner({ flow, step, request, api, services, onRequest, onLeave, onRedirect, initialFormData, preview }: StepRunnerProps) {
  const { t } = services;
  // A schema edited since the build (the preview reads schemas/ from disk): no precompiled validator for it.
  const edited = useMemo(() => Boolean(preview?.schema) && JSON.stringify(preview?.schema) !== JSON.stringify(builtSchema(step.schema)), [preview?.schema, step.schema]);
  // Preloaded with the request (Wizard), the validator is usually there for the first render.
  const [validator, setValidator] = useState<ValidatorType | null>(() => (edited ? null : loadedValidator(step.schema)));
  const [formData, setFormData] = useState<Record<string, unknown>>(() => initialFormData ?? storedStepData(step, request.form_data));
  const [serverErrors, setServerErrors] = useState<Record<string, string[]>>({});
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const pending = step.status === 'pending';

  useEffect(() => {
    if (edited) return;
    let live = true;
    stepValidator(step.schema).then((v) => live && setValidator(() => v));
    return () => {
      live = false;
    };
  }, [step.schema, edited]);

  const schema = useMemo(() => (edited ? preview!.schema! : stepSchema(step.schema)), [step.schema, edited, preview]);
  const uiSchema = useMemo(() => {
    const ui = translateUiSchema((step.uiSchema ?? {}) as UiSchema, t);
    return { ...ui, 'ui:submitButtonOptions': { norender: true } } as UiSchema;
  }, [step.uiSchema, t]);
  // Files a widget hands over for a multipart submit (the signature's PNG), by field name.
  const attachments = useRef(new Map<string, { file: Blob; fileName: string }>());
  const submitGuard = useRef<(() => Promise<boolean> | boolean) | null>(null);
  const [uploadProgress, setUploadProgress] = useState<number | null>(null);
  // A widget's reason that holds "Pasul următor" disabled (identity: the address is missing; overview: no primary code).
  const [blockedBy, setBlockedBy] = useState<string | null>(null);
  // The latest onLeave, so a new callback from the parent does not rebuild the widgets' context.
  const leave = useRef(onLeave);
  const redirect = useRef(onRedirect);
  useEffect(() => {
    leave.current = onLeave;
    redirect.current = onRedirect;
  }, [onLeave, onRedirect]);
  const formContext: StepFormContext = useMemo(
    () => ({
      services,
      stepId: step.id,
      profile: request.profile,
      media: request.media as StepFormContext['media'],
      mailingAddress: request.mailing_address as StepFormContext['mailingAddress'],
      navigate: (routeName) => leave.current(routePath(routeName, flow.registrationType, [flow]) ?? '/'),
      leaveFor: (url) => redirect.current(url),
      reloadRequest: async () => onRequest(await api.get<RegistrationRequest>(`${flow.api.open}?timestamp=${Date.now()}`)),
      attachFile: (field, file, fileName = 'file') => {
        if (file) attachments.current.set(field, { file, fileName });
        else attachments.current.delete(field);
      },
      setSubmitGuard: (guard) => {
        submitGuard.current = guard;
      },
      blockNext: setBlockedBy,
      clearServerError: (field) => setServerErrors((errors) => Object.fromEntries(Object.entries(errors).filter(([k]) => k.split('.')[0] !== field))),
      uploadProgress,
      submitting: busy,
      partner: request.partner,
      company: request.company ?? null,
    }),
    [services, step.id, flow, request.profile, request.media, request.mailing_address, request.partner, request.company, api, onRequest, uploadProgress, busy],
  );
  const shownFields = useMemo(() => visibleFields(schema as RJSFSchema, uiSchema), [schema, uiSchema]);
  const valid = useMemo(() => (validator ? validator.isValid(schema as RJSFSchema, formData, schema as RJSFSchema) : false), [validator, schema, formData]);
  const hasErrors = Object.keys(serverErrors).length > 0;

  function change(next: Record<string, unknown>) {
    // Typing in a field clears that field's server error.
    const changed = Object.keys({ ...formData, ...next }).filter((k) => JSON.stringify(formData[k]) !== JSON.stringify(next[k]));
    if (changed.length) {
      setServerErrors((errors) => Object.fromEntries(Object.entries(errors).filter(([k]) => !changed.includes(k.split('.')[0]))));
    }
    setFormData(next);
  }

  async function submit() {
    if (busy || (!preview && (!valid || blockedBy))) return;
    setBusy(true);
    setFailure(null);
    // Branch conditions see what the request already holds (a sent dossier) and this step's answers.
    const plan = planSubmit(step, requestContext(request, { ...request.form_data, ...formData }));
    let leaving = false;
    try {
      // A widget may hold the submit back once (the documents step's power-of-attorney screen).
      if (submitGuard.current && !(await submitGuard.current())) return;
      if (preview) return await preview.submit(plan, [...attachments.current.keys()]);
      const answer =
        plan.encoding === 'multipart' && api.postForm
          ? await api.postForm<RegistrationRequest>(plan.endpoint, multipartBody(plan.body, attachments.current), setUploadProgress)
          : await api.post<RegistrationRequest>(plan.endpoint, plan.body);
      if (plan.navigate) onLeave(routePath(plan.navigate, flow.registrationType, [flow]) ?? '/');
      else if (plan.then) {
        // The follow-up call (the payment redirect): its answer names the page to open.
        const next = await api.post<Record<string, unknown>>(plan.then.endpoint, plan.then.body);
        const url = readPointer(next, plan.then.redirect);
        if (next.success !== false && typeof url === 'string' && url) {
          leaving = true;
          onRedirect(url);
        } else {
          const errors = step.copy?.redirectErrors;
          const code = typeof next.error_code === 'string' ? next.error_code : 'unknown';
          setFailure(errors ? t(`${errors}.${code}`, { defaultValue: t(`${errors}.unknown`) }) : t('steps:common.saveError'));
          onRequest(answer);
        }
      } else onRequest(answer);
    } catch (error) {
      if (isEngineError(error) && error.status === 409 && error.payload) onRequest(error.payload as RegistrationRequest, { stale: true });
      else if (isEngineError(error) && error.status === 422 && error.fieldErrors) {
        // Fields with `ui:options.clearOnServerError` (the fiscal code) are emptied; their message stays until typing.
        const cleared = Object.keys(error.fieldErrors).filter((field) => clearsOnServerError(step, field));
        if (cleared.length) setFormData((current) => ({ ...current, ...Object.fromEntries(cleared.map((field) => [field, undefined])) }));
        setServerErrors(error.fieldErrors);
        // A step with its own failure text says it as a toast for a refusal too (the reason stays on the page).
        if (step.copy?.saveError) services.notify?.('error', t(step.copy.saveError));
      }
      else {
        // A step may name its own failure text (the signature's "Semnătura nu a putut fi salvata!"), shown as a toast too.
        const text = step.copy?.saveError ? t(step.copy.saveError) : isEngineError(error) && error.message ? error.message : t('steps:common.saveError');
        setFailure(text);
        if (step.copy?.saveError) services.notify?.('error', text);
      }
    } finally {
      // While the browser leaves for the payment page the button keeps its spinner.
      if (!leaving) setBusy(false);
      setUploadProgress(null);
    }
  }

  async function previous() {
    if (busy) return;
    if (preview) return preview.previous();
    setBusy(true);
    try {
      onRequest(await api.post<RegistrationRequest>(flow.api.previous, { current_step_identifier: step.id }));
    } catch (error) {
      if (isEngineError(error) && error.status === 409 && error.payload) onRequest(error.payload as RegistrationRequest, { stale: true });
      else setFailure(t('steps:common.saveError'));
    } finally {
      setBusy(false);
    }
  }

  const submitLabel = step.copy?.submitShort ? (
    // A shorter label under 1280 px (spec 001 §9: the pricing button's short form).
    <>
      <Box as="span" hideBelow="xl">
        {t(step.copy.submit ?? 'steps:common.next')}
      </Box>
      <Box as="span" hideFrom="xl">
        {t(step.copy.submitShort)}
      </Box>
    </>
  ) : (
    t(step.copy?.submit ?? 'steps:common.next')
  );
  // Why next is disabled: a widget's reason, else the step's (`copy.required`) while the form is not valid.
  const requiredHint = busy ? null : (blockedBy ?? (step.copy?.required && validator && !valid ? t(step.copy.required) : null));
  // A server error under a field the form shows is read there; only the others are repeated at the buttons.
  const unplacedError = Object.entries(serverErrors).find(([key]) => !shownFields.has(key.split('.')[0]))?.[1]?.[0];
  return (
    <Stack gap="6" as="section" aria-labelledby={`${step.id}-title`}>
      <StepIntro step={step} title={t(step.title, { partner: request.partner.name })} services={services} />
      {pending ? (
        <Alert.Root status="info" role="status">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>{t('steps:common.pendingTitle')}</Alert.Title>
            <Alert.Description>{t('steps:common.pendingNotice')}</Alert.Description>
          </Alert.Content>
        </Alert.Root>
      ) : (
        <Suspense fallback={<Spinner aria-label={t('steps:common.loading')} />}>
          <StepForm
            schema={schema as RJSFSchema}
            uiSchema={uiSchema}
            formData={formData}
            formContext={formContext}
            validator={validator ?? PLACEHOLDER_VALIDATOR}
            widgets={widgets}
            fields={fields}
            extraErrors={toErrorSchema(serverErrors) as never}
            showErrorList={false}
            noHtml5Validate
            noValidate
            // A `const` is a condition the user must meet (identity: `verified: true`), not a value to fill in.
            experimental_defaultFormStateBehavior={{ arrayMinItems: { populate: 'never' }, emptyObjectFields: 'skipDefaults', constAsDefaults: 'never' }}
            idPrefix={step.id}
            onChange={(e) => change((e.formData ?? {}) as Record<string, unknown>)}
            onSubmit={() => void submit()}
          >
            <span />
          </StepForm>
        </Suspense>
      )}
      {failure || unplacedError ? (
        <Text role="alert" color="fg.error">
          {failure ?? unplacedError}
        </Text>
      ) : null}
      {/* Why next is disabled, where a step or its widget says it (`copy.required`: the questionnaire's "Bifează cel puțin o opțiune."). */}
      {requiredHint ? (
        <Text id={`${step.id}-required`} fontSize="sm" color="fg.muted">
          {requiredHint}
        </Text>
      ) : null}
      <HStack justify="space-between" gap="3" wrap="wrap">
        {request.steps.previous ? (
          <Button variant="outline" onClick={() => void previous()} disabled={busy}>
            {t('steps:common.previous')}
          </Button>
        ) : (
          <span />
        )}
        {pending ? null : (
          <Button
            colorPalette="blue"
            onClick={() => void submit()}
            disabled={busy || (!preview && (!valid || hasErrors || Boolean(blockedBy)))}
            loading={busy}
            // Sending, the label stays beside the spinner: the button keeps its name for a screen reader
            // (Chakra hides the children of a loading button that has no loadingText).
            loadingText={submitLabel}
            aria-describedby={requiredHint ? `${step.id}-required` : undefined}
          >
            {submitLabel}
          </Button>
        )}
      </HStack>
    </Stack>
  );
}

/**
 * The step's top-level fields that rjsf renders, each with its error under it. A whole-step field
 * (`"ui:field"` at the root) shows only the errors it chooses to, so none count as shown there.
 */
function visibleFields(schema: RJSFSchema, uiSchema: UiSchema): Set<string> {
  if (uiSchema['ui:field']) return new Set();
  const keys = Object.keys((schema.properties ?? {}) as Record<string, unknown>);
  return new Set(keys.filter((key) => (uiSchema[key] as UiSchema | undefined)?.['ui:widget'] !== 'hidden'));
}

function clearsOnServerError(step: FlowStep, field: string): boolean {
  const ui = (step.uiSchema ?? {}) as Record<string, { 'ui:options'?: { clearOnServerError?: boolean } } | undefined>;
  return Boolean(ui[field]?.['ui:options']?.clearOnServerError);
}

/** A multipart body: the payload's fields (objects and arrays as JSON) and the attached files. */
function multipartBody(body: Record<string, unknown>, files: Map<string, { file: Blob; fileName: string }>): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(body)) {
    if (value === undefined || value === null) continue;
    form.append(key, typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
  for (const [field, { file, fileName }] of files) form.append(field, file, fileName);
  return form;
}

/** The step schema bundled at build time, or null for one added since (the preview). */
function builtSchema(id: string): RJSFSchema | null {
  try {
    return stepSchema(id);
  } catch {
    return null;
  }
}

/** Until the step's precompiled validator arrives: nothing is valid, nothing is compiled. */
const PLACEHOLDER_VALIDATOR: ValidatorType = {
  validateFormData: () => ({ errors: [], errorSchema: {} }),
  toErrorList: () => [],
  isValid: () => false,
  rawValidation: () => ({}),
  reset: () => undefined,
} as unknown as ValidatorType;
