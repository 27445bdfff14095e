import { useCallback, useEffect, useMemo, useState } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { Alert, Box, Field, Flex, Heading, Link, List, NativeSelect, Spinner, Stack, Text } from '@chakra-ui/react';
import type { RJSFSchema } from '@rjsf/utils';
import { previewEntries, type Flow, type PreviewEntry, type PreviewState } from '@/core/flow';
import { LANGUAGES, type Language } from '@/shared/i18n';
import { usePageTitle } from '@/shared/useT';
import { staffApi } from '../api';
import { staffRoleLoader } from '../guards';
import { useStaffT, type StaffT as T } from '../i18n';
import { StepPreviewPanel } from './StepPreviewPanel';
import type { PreviewPartnerOffer } from './preview-services';

/** `GET /api/staff/preview`. */
interface PreviewData {
  flows: { file: string; flow: Flow }[];
  schemas: Record<string, RJSFSchema>;
  problems: { level: 'error' | 'warning'; file: string; path: string; message: string }[];
  partners: PreviewPartnerOffer[];
  activities: { id: number; code: string; name: string }[];
}

/** The address of an entry: the page's query, so a reload (after editing a flow file) shows the same step. */
function entryQuery(file: string, entry: PreviewEntry, language: string): string {
  const query = new URLSearchParams({ flow: file, step: entry.stepId, partner: entry.partner, activity: entry.activity ?? '', state: entry.state, lng: language });
  return `?${query.toString()}`;
}

function sameEntry(entry: PreviewEntry, params: URLSearchParams): boolean {
  return entry.stepId === params.get('step') && entry.partner === params.get('partner') && (entry.activity ?? '') === (params.get('activity') ?? '') && entry.state === (params.get('state') ?? 'start');
}

/** Editors only (another role is sent to /staff with the "no access" notice). */
export const previewLoader = staffRoleLoader('editor');

/**
 * /staff/preview (issue 18, role editor): every flow file × step × partner × activity variant ×
 * state, each step rendered as the applicant sees it, from the files on disk (read again at each
 * load), with flows:check's problems at the top.
 */
export function PreviewPage() {
  const t = useStaffT();
  usePageTitle(t('preview.title'));
  const [params, setParams] = useSearchParams();
  const [data, setData] = useState<PreviewData | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let live = true;
    staffApi.get<PreviewData>('/staff/preview').then(
      (answer) => live && setData(answer),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, []);

  const lists = useMemo(() => (data ? data.flows.map(({ file, flow }) => ({ file, flow, entries: previewEntries(flow, data.partners) })) : []), [data]);
  const language: Language = (LANGUAGES as readonly string[]).includes(params.get('lng') ?? '') ? (params.get('lng') as Language) : 'ro';
  const chosenList = lists.find((l) => l.file === params.get('flow')) ?? null;
  const chosen = chosenList?.entries.find((e) => sameEntry(e, params)) ?? null;
  const example = Math.max(0, Number(params.get('example') ?? 0) || 0);

  const set = useCallback(
    (changes: Record<string, string>) =>
      setParams((current) => {
        const next = new URLSearchParams(current);
        for (const [k, v] of Object.entries(changes)) next.set(k, v);
        return next;
      }),
    [setParams],
  );
  const onPrevious = useCallback(() => {
    if (!chosenList || !chosen) return;
    // The previous step of the flow as this entry resolves it, for the same partner, activity and state.
    const steps = chosenList.entries.filter((e) => e.partner === chosen.partner);
    const order = chosenList.flow.steps.map((s) => s.id);
    const before = order.slice(0, order.indexOf(chosen.stepId)).reverse();
    for (const id of before) {
      const candidates = steps.filter((e) => e.stepId === id);
      const match = candidates.find((e) => e.activity === chosen.activity && e.state === chosen.state) ?? candidates[0];
      if (match) return setParams(new URLSearchParams(entryQuery(chosenList.file, match, language)));
    }
  }, [chosenList, chosen, language, setParams]);

  if (failed) {
    return (
      <Alert.Root status="error">
        <Alert.Indicator />
        <Alert.Description>{t('preview.loadError')}</Alert.Description>
      </Alert.Root>
    );
  }
  if (!data) return <Spinner aria-label={t('preview.loading')} />;
  const partner = chosen ? data.partners.find((p) => p.slug === chosen.partner) : undefined;
  const examples = chosen?.step.examples ?? [];

  return (
    <Stack gap="6">
      <Stack gap="2">
        <Heading as="h1" size="2xl">
          {t('preview.title')}
        </Heading>
        <Text color="fg.muted">{t('preview.intro')}</Text>
      </Stack>
      <Problems problems={data.problems} t={t} />
      <Flex gap="6" direction={{ base: 'column', lg: 'row' }} align="flex-start">
        <EntryList lists={lists} data={data} params={params} language={language} t={t} />
        <Stack gap="4" flex="1" minW="0" w="full">
          {chosen && chosenList && partner ? (
            <>
              <Heading as="h2" size="lg" data-testid="preview-step-id">
                {chosen.stepId}
              </Heading>
              <Text color="fg.muted">{entryLabel(chosen, data, t)}</Text>
              <Flex gap="4" wrap="wrap">
                <Field.Root w="auto">
                  <Field.Label>{t('preview.language')}</Field.Label>
                  <NativeSelect.Root size="sm" w="40">
                    <NativeSelect.Field value={language} onChange={(e) => set({ lng: e.currentTarget.value })}>
                      <option value="ro">Română</option>
                      <option value="en">English</option>
                    </NativeSelect.Field>
                    <NativeSelect.Indicator />
                  </NativeSelect.Root>
                </Field.Root>
                {examples.length > 1 ? (
                  <Field.Root w="auto">
                    <Field.Label>{t('preview.example')}</Field.Label>
                    <NativeSelect.Root size="sm" w="40">
                      <NativeSelect.Field value={String(Math.min(example, examples.length - 1))} onChange={(e) => set({ example: e.currentTarget.value })}>
                        {examples.map((_, i) => (
                          <option key={i} value={i}>
                            {t('preview.exampleN', { n: i + 1 })}
                          </option>
                        ))}
                      </NativeSelect.Field>
                      <NativeSelect.Indicator />
                    </NativeSelect.Root>
                  </Field.Root>
                ) : null}
              </Flex>
              {examples.length ? null : <Text color="fg.muted">{t('preview.noExample')}</Text>}
              <StepPreviewPanel
                key={`${params.toString()}`}
                file={chosenList.file}
                flow={chosenList.flow}
                entry={chosen}
                partner={partner}
                schema={data.schemas[chosen.step.schema]}
                language={language}
                example={Math.min(example, Math.max(0, examples.length - 1))}
                t={t}
                onPrevious={onPrevious}
              />
            </>
          ) : (
            <Text>{params.get('step') ? t('preview.notFound') : t('preview.choose')}</Text>
          )}
        </Stack>
      </Flex>
    </Stack>
  );
}

function Problems({ problems, t }: { problems: PreviewData['problems']; t: T }) {
  if (!problems.length) {
    return (
      <Alert.Root status="success">
        <Alert.Indicator />
        <Alert.Description>{t('preview.checkClean')}</Alert.Description>
      </Alert.Root>
    );
  }
  return (
    <Alert.Root status={problems.some((p) => p.level === 'error') ? 'error' : 'warning'}>
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>{t('preview.checkTitle')}</Alert.Title>
        <List.Root data-testid="flows-check-problems" gap="1" ps="4">
          {problems.map((p, i) => (
            <List.Item key={i}>
              {t(`preview.${p.level}`)} {p.file}
              {p.path}: {p.message}
            </List.Item>
          ))}
        </List.Root>
      </Alert.Content>
    </Alert.Root>
  );
}

const STATE_LABELS: Record<PreviewState, string | null> = { start: null, paid: 'preview.statePaid', form: 'preview.stateForm' };

function entryLabel(entry: PreviewEntry, data: PreviewData, t: T): string {
  const partner = data.partners.find((p) => p.slug === entry.partner)?.name ?? entry.partner;
  const activity = entry.activity ? (data.activities.find((a) => a.code === entry.activity)?.name ?? entry.activity) : null;
  const state = STATE_LABELS[entry.state];
  return [
    t('preview.partner', { partner }),
    activity ? t('preview.activity', { activity }) : t('preview.anyActivity'),
    ...(state ? [t(state)] : []),
    entry.variants.length ? t('preview.variants', { variants: entry.variants.join(', ') }) : t('preview.noVariant'),
  ].join(' · ');
}

function EntryList({ lists, data, params, language, t }: { lists: { file: string; entries: PreviewEntry[] }[]; data: PreviewData; params: URLSearchParams; language: string; t: T }) {
  return (
    <Box as="nav" aria-label={t('preview.listLabel')} w={{ base: 'full', lg: '80' }} flexShrink={0} maxH={{ lg: '85vh' }} overflowY="auto" tabIndex={0}>
      <Stack gap="4">
        {lists.map(({ file, entries }) => (
          <Stack key={file} gap="2">
            <Heading as="h2" size="md">
              {file}
            </Heading>
            {[...new Set(entries.map((e) => e.stepId))].map((stepId) => (
              <Stack key={stepId} gap="1">
                <Heading as="h3" size="sm">
                  {stepId}
                </Heading>
                <List.Root gap="1" ps="2" listStyleType="none">
                  {entries
                    .filter((e) => e.stepId === stepId)
                    .map((entry) => {
                      const current = params.get('flow') === file && sameEntry(entry, params);
                      return (
                        <List.Item key={`${entry.partner}:${entry.activity}:${entry.state}`} fontSize="sm">
                          <Link asChild color="brand.fg" fontWeight={current ? 'bold' : undefined} aria-current={current ? 'page' : undefined}>
                            <RouterLink to={entryQuery(file, entry, language)} aria-label={`${stepId} · ${entryLabel(entry, data, t)}`} data-testid="preview-entry">
                              {entryLabel(entry, data, t)}
                            </RouterLink>
                          </Link>
                        </List.Item>
                      );
                    })}
                </List.Root>
              </Stack>
            ))}
          </Stack>
        ))}
      </Stack>
    </Box>
  );
}
