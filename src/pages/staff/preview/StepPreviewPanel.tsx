import { useEffect, useMemo, useState } from 'react';
import { Alert, Box, Grid, Heading, Spinner, Stack, Text } from '@chakra-ui/react';
import type { i18n as I18n } from 'i18next';
import type { RJSFSchema } from '@rjsf/utils';
import { progress, resolveFlow, type Flow, type PreviewEntry, type SubmitPlan } from '@/core/flow';
import { isApiError } from '@/shared/api/client';
import { useConfig } from '@/shared/api/hooks';
import { createI18n, loadStepsNamespace, setLanguage, type Language } from '@/shared/i18n';
import { staffApi } from '../api';
import type { StaffT as T } from '../i18n';
import { StepRunner } from '@/engine/StepRunner';
import { stepSchema } from '@/engine/validators';
import type { EngineApi, EngineError } from '@/engine/api';
import { previewServices, sampleRequest, type PreviewPartnerOffer } from './preview-services';

export interface StepPreviewPanelProps {
  file: string;
  flow: Flow;
  entry: PreviewEntry;
  partner: PreviewPartnerOffer;
  /** The step's schema as it is on disk now. */
  schema: RJSFSchema | undefined;
  language: Language;
  example: number;
  /** The page's own copy (the staff page's language, not the step's). */
  t: T;
  onPrevious(): void;
}

type Result =
  | { kind: 'payload'; plan: SubmitPlan; files: string[]; checked: boolean }
  | { kind: 'errors' }
  | null;

/** An i18next instance of its own for the step, so its language switches without the staff page's. */
function useStepI18n(language: Language): I18n | null {
  const [ready, setReady] = useState<{ language: Language; instance: I18n } | null>(null);
  useEffect(() => {
    let live = true;
    const instance = createI18n();
    void setLanguage(instance, language)
      .then(() => loadStepsNamespace(instance))
      .then(() => live && setReady({ language, instance }));
    return () => {
      live = false;
    };
  }, [language]);
  return ready?.language === language ? ready.instance : null;
}

/** Nothing of the engine's API is used by a preview: its submit goes to `preview.submit`. */
const NO_API: EngineApi = {
  get: () => Promise.reject(new Error('preview')),
  post: () => Promise.reject(new Error('preview')),
};

/**
 * One step of the preview: the applicant's step runner (src/engine) with the preview's services and
 * a sample request, its language switchable, the resolved step's JSON beside it, and what
 * "Pasul următor" would send (validated by the server against the schema on disk) or its field errors.
 */
export function StepPreviewPanel({ file, flow, entry, partner, schema, language, example, t, onPrevious }: StepPreviewPanelProps) {
  const instance = useStepI18n(language);
  const { config } = useConfig();
  const product = config.product_name;
  const stepT = useMemo(() => (instance ? (key: string, vars?: Record<string, unknown>) => String(instance.t(key, { product, ...vars })) : null), [instance, product]);
  const resolved = useMemo(() => resolveFlow(flow, entry.context), [flow, entry.context]);
  const step = entry.step;
  const request = useMemo(() => sampleRequest(resolved, step.id, partner, entry.context), [resolved, step.id, partner, entry.context]);
  const [result, setResult] = useState<Result>(null);
  const [left, setLeft] = useState<string | null>(null);
  const services = useMemo(() => (stepT ? previewServices(stepT, flow, t('preview.noWrites'), entry.state === 'form') : null), [stepT, flow, entry.state, t]);
  const initialFormData = useMemo(() => structuredClone(step.examples?.[example] ?? {}) as Record<string, unknown>, [step.examples, example]);
  const edited = useMemo(() => schema !== undefined && isEdited(step.schema, schema), [schema, step.schema]);

  const preview = useMemo(
    () => ({
      schema,
      previous: onPrevious,
      async submit(plan: SubmitPlan, files: string[]) {
        setResult(null);
        const ask = (endpoint: string, body: Record<string, unknown>) =>
          staffApi.post<{ checked: boolean }>('/staff/preview/validate', {
            file,
            step: step.id,
            partner: entry.partner,
            activity: entry.activity,
            paid: Boolean(entry.context.paid),
            form_data: entry.context.formData,
            endpoint,
            body,
          });
        try {
          const answer = await ask(plan.endpoint, plan.body);
          const then = plan.then ? await ask(plan.then.endpoint, plan.then.body) : null;
          setResult({ kind: 'payload', plan, files, checked: answer.checked && (then?.checked ?? true) });
        } catch (error) {
          if (isApiError(error) && error.status === 422) {
            setResult({ kind: 'errors' });
            throw { status: 422, message: error.message, fieldErrors: error.fieldErrors } satisfies EngineError;
          }
          throw error;
        }
      },
    }),
    [schema, onPrevious, file, step.id, entry],
  );

  if (!instance || !stepT || !services) return <Spinner aria-label={t('preview.loading')} />;
  const { position, total } = progress(resolved, step.id);
  return (
    <Grid templateColumns={{ base: '1fr', xl: 'minmax(0, 1fr) minmax(0, 1fr)' }} gap="6">
      <Stack gap="4">
        {edited ? (
          <Alert.Root status="warning">
            <Alert.Indicator />
            <Alert.Description>{t('preview.schemaEdited', { schema: step.schema })}</Alert.Description>
          </Alert.Root>
        ) : null}
        <Box as="section" aria-label={t('preview.stepRegion')} lang={language} borderWidth="1px" borderRadius="md" p={{ base: '3', md: '6' }}>
          <Stack gap="4">
            <Text fontSize="sm" color="fg.muted">
              <span data-testid="wizard-progress">{stepT('steps:common.progress', { position, total })}</span>
              {step.name ? (
                <>
                  {' · '}
                  <Text as="span" fontWeight="semibold">
                    {stepT(step.name)}
                  </Text>
                </>
              ) : null}
            </Text>
            <StepRunner
              flow={resolved}
              step={step}
              request={request}
              api={NO_API}
              services={services}
              initialFormData={initialFormData}
              preview={preview}
              onRequest={() => undefined}
              onLeave={(path) => setLeft(path)}
              onRedirect={(url) => setLeft(url)}
            />
          </Stack>
        </Box>
        {left ? <Text role="status">{t('preview.leave', { target: left })}</Text> : null}
        <Stack as="section" aria-labelledby="preview-result-title" gap="2">
          <Heading as="h2" size="md" id="preview-result-title">
            {t('preview.resultTitle')}
          </Heading>
          <Box role="status" data-testid="preview-result">
            {result?.kind === 'payload' ? (
              <Stack gap="2">
                <Text fontWeight="semibold">{t('preview.payload', { endpoint: result.plan.endpoint })}</Text>
                <JsonBlock value={result.plan.body} label={t('preview.payload', { endpoint: result.plan.endpoint })} />
                {result.files.length ? <Text>{t('preview.files', { files: result.files.join(', ') })}</Text> : null}
                {result.plan.then ? (
                  <>
                    <Text fontWeight="semibold">{t('preview.thenCall', { endpoint: result.plan.then.endpoint })}</Text>
                    <JsonBlock value={result.plan.then.body} label={t('preview.thenCall', { endpoint: result.plan.then.endpoint })} />
                  </>
                ) : null}
                {result.plan.navigate ? <Text>{t('preview.navigate', { route: result.plan.navigate })}</Text> : null}
                {result.checked ? null : <Text color="fg.muted">{t('preview.unchecked')}</Text>}
              </Stack>
            ) : result?.kind === 'errors' ? (
              <Text color="fg.error">{t('preview.fieldErrors')}</Text>
            ) : (
              <Text color="fg.muted">{t('preview.resultHint')}</Text>
            )}
          </Box>
        </Stack>
      </Stack>
      <Stack as="section" aria-labelledby="preview-json-title" gap="2" minW="0">
        <Heading as="h2" size="md" id="preview-json-title">
          {t('preview.resolvedTitle')}
        </Heading>
        <JsonBlock value={step} label={t('preview.resolvedTitle')} testId="preview-step-json" />
      </Stack>
    </Grid>
  );
}

/** A JSON value in a scrollable, keyboard-reachable block. */
function JsonBlock({ value, label, testId }: { value: unknown; label: string; testId?: string }) {
  return (
    <Box as="pre" tabIndex={0} aria-label={label} data-testid={testId} overflow="auto" maxH="70vh" p="3" borderWidth="1px" borderRadius="md" bg="bg.subtle" fontSize="xs">
      <Box as="code" display="block" whiteSpace="pre">
        {JSON.stringify(value, null, 2)}
      </Box>
    </Box>
  );
}

/** Whether the schema on disk differs from the one built into the app (or the app has none of that name). */
function isEdited(id: string, schema: RJSFSchema): boolean {
  try {
    return JSON.stringify(stepSchema(id)) !== JSON.stringify(schema);
  } catch {
    return true;
  }
}
