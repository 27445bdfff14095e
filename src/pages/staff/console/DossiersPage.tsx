import { useEffect, useEffectEvent, useId, useState, type FormEvent } from 'react';
import { Box, Button, Field, Heading, HStack, Input, NativeSelect, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { useSearchParams } from 'react-router';
import useSWR from 'swr';
import { usePartners } from '@/shared/api/hooks';
import { AppLink } from '@/shared/components/AppLink';
import { FlashAlert } from '@/shared/components/FlashAlert';
import { usePageTitle } from '@/shared/useT';
import { staffApi, type DossierQuery } from './api';
import { flowLabel, formatDateTime, statusLabel, useConsoleT } from './i18n';
import { Cell, DataTable, HeaderCell } from './DataTable';
import { FLOW_LIST, useStepNames } from './steps';

export const PAGE_SIZE = 20;
export const FILTERS = ['flow', 'step', 'paid', 'status', 'partner'] as const;
type Filter = (typeof FILTERS)[number];
export const STATUSES = ['in_progress', 'submitted', 'paid', 'finalized', 'rejected', 'lost'] as const;

/** The query the page's address holds (`?search=…&flow=…&page=2`): a search can be bookmarked and shared. */
function queryOf(params: URLSearchParams): DossierQuery {
  const page = Number(params.get('page'));
  const query: DossierQuery = { page: Number.isInteger(page) && page > 0 ? page : 1, page_size: PAGE_SIZE };
  const search = params.get('search')?.trim();
  if (search) query.search = search;
  for (const key of FILTERS) {
    const value = params.get(key);
    if (value) query[key] = value;
  }
  return query;
}

/** The address of a query: what is set, without the page size; `page` from 2 on. */
function paramsOf(query: DossierQuery): URLSearchParams {
  const params = new URLSearchParams();
  if (query.search) params.set('search', query.search);
  for (const key of FILTERS) if (query[key]) params.set(key, query[key]);
  if (query.page && query.page > 1) params.set('page', String(query.page));
  return params;
}

type Option = { value: string; label: string };

/** A filter's choices: plain options, or options in labelled groups (the steps of each flow). */
function FilterSelect({ name, label, value, options, groups, onChange, anyLabel }: { name: Filter; label: string; value: string; options?: Option[]; groups?: { label: string; options: Option[] }[]; onChange: (name: Filter, value: string) => void; anyLabel: string }) {
  const list = (items: Option[]) =>
    items.map((o) => (
      <option key={o.value} value={o.value}>
        {o.label}
      </option>
    ));
  return (
    <Field.Root>
      <Field.Label>{label}</Field.Label>
      <NativeSelect.Root size="sm">
        <NativeSelect.Field name={name} value={value} onChange={(e) => onChange(name, e.currentTarget.value)}>
          <option value="">{anyLabel}</option>
          {options && list(options)}
          {groups?.map((g) => (
            <optgroup key={g.label} label={g.label}>
              {list(g.options)}
            </optgroup>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
    </Field.Root>
  );
}

/** /staff/dossiers: the operator's search over every dossier, with filters and pages. */
export function DossiersPage() {
  const { t, language } = useConsoleT();
  usePageTitle(t('list.pageTitle'));
  const [params, setParams] = useSearchParams();
  // The page's own state is the query; the address follows it (replaced, not pushed): two filters
  // changed in quick succession both count, even while the first navigation is still under way.
  const [query, setQuery] = useState(() => queryOf(params));
  const searchId = useId();
  const hintId = `${searchId}-hint`;
  const { data: partners } = usePartners();
  const steps = useStepNames(t);
  const { data, error, isLoading, mutate } = useSWR(['/staff/dossiers', JSON.stringify(query)], () => staffApi.dossiers(query), { keepPreviousData: true, revalidateOnFocus: false });

  const address = paramsOf(query).toString();
  const followQuery = useEffectEvent((next: string) => {
    if (next !== params.toString()) setParams(new URLSearchParams(next), { replace: true });
  });
  useEffect(() => followQuery(address), [address]);

  const update = (changes: Partial<Record<'search' | Filter | 'page', string>>) =>
    setQuery((previous) => {
      const next: DossierQuery = { ...previous, page: 1 };
      for (const [key, value] of Object.entries(changes) as ['search' | Filter | 'page', string][]) {
        if (key === 'page') next.page = Number(value);
        else if (value) next[key] = value;
        else delete next[key];
      }
      return next;
    });
  const onSearch = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    update({ search: String(new FormData(event.currentTarget).get('search') ?? '').trim() });
  };
  const onFilter = (name: Filter, value: string) => update(name === 'flow' ? { flow: value, step: '' } : { [name]: value });

  const flows = query.flow ? FLOW_LIST.filter((f) => f.id === query.flow) : FLOW_LIST;
  // One flow chosen: its steps; none: each flow's steps under its name (both flows start at "Pasul 1").
  const stepGroups = steps.groups(flows).map((g) => ({ label: flowLabel(t, g.flow.id), options: g.options }));
  const pages = data ? Math.max(1, Math.ceil(data.total / data.page_size)) : 1;
  const page = data?.page ?? query.page ?? 1;
  const filtered = FILTERS.some((f) => query[f]) || Boolean(query.search);

  return (
    <Stack gap="6">
      <Heading as="h1" size="2xl">
        {t('list.title')}
      </Heading>

      <form role="search" onSubmit={onSearch} aria-label={t('list.search')}>
        <HStack alignItems="flex-end" gap="3" flexWrap="wrap">
          <Field.Root flex="1" minW="14rem">
            <Field.Label htmlFor={searchId}>{t('list.search')}</Field.Label>
            <Input key={query.search ?? ''} id={searchId} type="search" name="search" defaultValue={query.search ?? ''} aria-describedby={hintId} autoComplete="off" />
            <Field.HelperText id={hintId}>{t('list.searchHint')}</Field.HelperText>
          </Field.Root>
          <Button type="submit" mb={{ base: '0', md: '6' }}>
            {t('list.searchButton')}
          </Button>
        </HStack>
      </form>

      <Box as="section" aria-labelledby={`${searchId}-filters`}>
        <Heading as="h2" size="md" id={`${searchId}-filters`} mb="3">
          {t('list.filters')}
        </Heading>
        <SimpleGrid columns={{ base: 1, sm: 2, lg: 5 }} gap="3">
          <FilterSelect name="flow" label={t('list.flow')} value={query.flow ?? ''} onChange={onFilter} anyLabel={t('list.any')} options={FLOW_LIST.map((f) => ({ value: f.id, label: flowLabel(t, f.id) }))} />
          <FilterSelect name="step" label={t('list.step')} value={query.step ?? ''} onChange={onFilter} anyLabel={t('list.any')} {...(stepGroups.length === 1 ? { options: stepGroups[0].options } : { groups: stepGroups })} />
          <FilterSelect name="paid" label={t('list.paid')} value={query.paid ?? ''} onChange={onFilter} anyLabel={t('list.any')} options={[{ value: 'true', label: t('yes') }, { value: 'false', label: t('no') }]} />
          <FilterSelect name="status" label={t('list.status')} value={query.status ?? ''} onChange={onFilter} anyLabel={t('list.any')} options={STATUSES.map((s) => ({ value: s, label: statusLabel(t, s) }))} />
          <FilterSelect name="partner" label={t('list.partner')} value={query.partner ?? ''} onChange={onFilter} anyLabel={t('list.any')} options={(partners ?? []).map((p) => ({ value: p.slug, label: p.name }))} />
        </SimpleGrid>
        {filtered && (
          <Button variant="outline" size="sm" mt="3" onClick={() => setQuery({ page: 1, page_size: PAGE_SIZE })}>
            {t('list.reset')}
          </Button>
        )}
      </Box>

      {error ? (
        <FlashAlert title={t('loadError')}>
          <Button size="sm" mt="2" onClick={() => void mutate()}>
            {t('retry')}
          </Button>
        </FlashAlert>
      ) : isLoading && !data ? (
        <Text role="status">{t('loading')}</Text>
      ) : data ? (
        <>
          <DataTable caption={pages > 1 ? t('list.captionPage', { total: data.total, page, pages }) : t('list.caption', { total: data.total })}>
            <thead>
              <tr>
                {(['id', 'name', 'email', 'cnp', 'cui', 'flow', 'step', 'paid', 'status', 'partner', 'created'] as const).map((c) => (
                  <HeaderCell key={c}>{t(`list.columns.${c}`)}</HeaderCell>
                ))}
              </tr>
            </thead>
            <tbody>
              {data.items.map((d) => (
                <tr key={d.id} data-testid="dossier-row">
                  <Cell>{d.id}</Cell>
                  <Cell>
                    <AppLink to={`/staff/dossiers/${d.id}`} aria-label={t('list.open', { id: d.id, name: d.name ?? t('list.noName') })}>
                      {d.name ?? t('list.noName')}
                    </AppLink>
                  </Cell>
                  <Cell>{d.email}</Cell>
                  <Cell>{d.cnp ?? t('none')}</Cell>
                  <Cell>{d.cui ?? t('none')}</Cell>
                  <Cell>{flowLabel(t, d.flow)}</Cell>
                  <Cell>{steps.label(d.flow, d.step_id)}</Cell>
                  <Cell>{d.paid ? t('yes') : t('no')}</Cell>
                  <Cell>{statusLabel(t, d.status)}</Cell>
                  <Cell>{d.partner ?? t('none')}</Cell>
                  <Cell>{formatDateTime(d.created_at, language)}</Cell>
                </tr>
              ))}
            </tbody>
          </DataTable>
          {data.items.length === 0 && <Text>{t('list.empty')}</Text>}
          {pages > 1 && (
            <HStack as="nav" aria-label={t('list.pagination')} gap="3" justifyContent="center">
              <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => update({ page: String(page - 1) })}>
                {t('list.previous')}
              </Button>
              <Text aria-live="polite">{t('list.pageOf', { page, pages })}</Text>
              <Button variant="outline" size="sm" disabled={page >= pages} onClick={() => update({ page: String(page + 1) })}>
                {t('list.next')}
              </Button>
            </HStack>
          )}
        </>
      ) : null}
    </Stack>
  );
}

/** The console's pages are for operators (an editor goes to /staff with the "no access" notice). */
export { consoleLoader } from './loader';
