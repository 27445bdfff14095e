/** The dossier page's read-only blocks: labelled values, files, the company, the timeline, the audit log. */
import { useEffect, useState, type ReactNode } from 'react';
import { Box, Button, Heading, Image, List, Stack, Text } from '@chakra-ui/react';
import type { MailingAddress } from '@/core/api-types';
import type { TimelineItem } from '@/core/timeline';
import { FlashAlert } from '@/shared/components/FlashAlert';
import { saveStaffFile, staffApi, type AuditEntry, type DossierCompany, type DossierFile } from './api';
import { Cell, DataTable, HeaderCell } from './DataTable';
import { formatDateTime, type ConsoleT } from './i18n';

export function Section({ title, children, id }: { title: string; children: ReactNode; id: string }) {
  return (
    <Box as="section" aria-labelledby={id} borderTopWidth="1px" pt="4">
      <Heading as="h2" size="lg" id={id} mb="3">
        {title}
      </Heading>
      {children}
    </Box>
  );
}

/** A list of labelled values; `key`: a row's own key when two labels may read alike. */
export function Pairs({ rows }: { rows: [label: string, value: ReactNode, key?: string][] }) {
  return (
    <Box as="dl" display="grid" gridTemplateColumns={{ base: '1fr', sm: 'minmax(10rem, max-content) 1fr' }} columnGap="4" rowGap="1">
      {rows.map(([label, value, key]) => (
        <Box key={key ?? label} display="contents">
          <Box as="dt" fontWeight="semibold">
            {label}
          </Box>
          <Box as="dd" mb={{ base: '2', sm: '0' }} overflowWrap="anywhere">
            {value}
          </Box>
        </Box>
      ))}
    </Box>
  );
}

export function show(value: unknown, t: ConsoleT): string {
  if (value === null || value === undefined || value === '') return t('none');
  if (typeof value === 'boolean') return value ? t('yes') : t('no');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** The file's download address: the one the API gives, else the contract's `/api/staff/dossiers/:id/files/:file`. */
export function fileUrl(dossier: number, file: DossierFile): string {
  return file.url || `/api/staff/dossiers/${dossier}/files/${file.id}`;
}

export function Files({ dossier, files, t }: { dossier: number; files: DossierFile[]; t: ConsoleT }) {
  const [error, setError] = useState<string | null>(null);
  if (!files.length) return <Text>{t('dossier.noFiles')}</Text>;
  const download = async (file: DossierFile) => {
    setError(null);
    try {
      await saveStaffFile(fileUrl(dossier, file), file.name);
    } catch {
      setError(t('dossier.downloadError'));
    }
  };
  return (
    <Stack gap="2">
      <List.Root listStyle="none" ms="0" gap="2">
        {files.map((file) => (
          <List.Item key={`${file.kind ?? ''}-${file.id}`} display="flex" gap="2" alignItems="center" flexWrap="wrap">
            {file.kind && <Text as="span">{t(`dossier.kinds.${file.kind}`, { defaultValue: file.kind })}:</Text>}
            <Button variant="outline" size="sm" onClick={() => void download(file)} whiteSpace="normal" textAlign="start" h="auto" minH="8" py="1">
              {t('dossier.download', { name: file.name })}
            </Button>
          </List.Item>
        ))}
      </List.Root>
      {error && <FlashAlert title={error} />}
    </Stack>
  );
}

/** The signature as an image (fetched with the staff token), above its download. */
export function SignatureImage({ url, alt }: { url: string; alt: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let objectUrl: string | null = null;
    let live = true;
    staffApi
      .blob(url)
      .then((blob) => {
        if (!live) return;
        objectUrl = URL.createObjectURL(blob);
        setSrc(objectUrl);
      })
      .catch(() => undefined);
    return () => {
      live = false;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [url]);
  return src ? <Image src={src} alt={alt} maxW="18rem" borderWidth="1px" borderRadius="l2" bg="white" mb="2" /> : null;
}

/** The firm's main CAEN code in the revision the server found it in. */
export function caenLine(caen: NonNullable<DossierCompany['caen']>, t: ConsoleT): string {
  if (caen.status === 'current' && caen.current) return t('dossier.companyCaenCurrent', { code: caen.code, name: caen.current.name });
  if (caen.status === 'previous' && caen.previous) return t('dossier.companyCaenPrevious', { code: caen.code, name: caen.previous.name });
  if (caen.status === 'ambiguous') return t('dossier.companyCaenAmbiguous', { code: caen.code, previous: caen.previous?.name ?? '', current: caen.current?.name ?? '' });
  return t('dossier.companyCaenUnknown', { code: caen.code });
}

/** "Am PFA": the firm found by its CUI; a CAEN Rev.2 main code (or one that may be read as one) with its Rev.3 correspondence and the update procedure. */
export function CompanyBlock({ company, t }: { company: DossierCompany; t: ConsoleT }) {
  const caen = company.caen ?? null;
  const update = caen && (caen.status === 'previous' || caen.status === 'ambiguous');
  return (
    <Stack gap="3">
      <Pairs
        rows={[
          [t('dossier.companyName'), company.name],
          [t('dossier.fields.cui'), company.fiscal_code],
          [t('dossier.companyRegistration'), show(company.registration_number, t)],
          [t('dossier.companyAddress'), show(company.address, t)],
          [t('dossier.companyCaen'), caen ? <span data-testid="company-caen">{caenLine(caen, t)}</span> : show(company.caen_code, t)],
        ]}
      />
      {update ? (
        <Box borderStartWidth="4px" borderColor="border.warning" ps="3" data-testid="company-caen-notice">
          <Text>
            {t(caen.status === 'ambiguous' ? 'dossier.companyCaenAmbiguousText' : 'dossier.companyCaenPreviousText')} {t('dossier.companyCaenProcedure')}
          </Text>
          {caen.equivalents.length ? (
            <>
              <Text mt="2">{t('dossier.companyCaenEquivalents')}</Text>
              <List.Root ms="5">
                {caen.equivalents.map((e) => (
                  <List.Item key={e.code}>
                    {e.code} {e.name}
                  </List.Item>
                ))}
              </List.Root>
            </>
          ) : null}
        </Box>
      ) : null}
    </Stack>
  );
}

export function address(a: MailingAddress): string {
  const line = [a.street, a.number, a.building && `bl. ${a.building}`, a.entrance && `sc. ${a.entrance}`, a.floor && `et. ${a.floor}`, a.apartment && `ap. ${a.apartment}`].filter(Boolean).join(', ');
  return [`${a.contact_last_name} ${a.contact_first_name}`, a.contact_phone, line, [a.postal_code, a.city, a.county].filter(Boolean).join(', ')].filter(Boolean).join(' · ');
}

/** One timeline item: its type's title (the applicant's status page copy), its date and its fields. */
export function TimelineList({ items, t }: { items: TimelineItem[]; t: ConsoleT }) {
  if (!items.length) return <Text>{t('dossier.noItems')}</Text>;
  return (
    <List.Root as="ol" listStyle="none" ms="0" gap="3">
      {items.map((item) => {
        const { id, type, date, ...fields } = item as TimelineItem & Record<string, unknown>;
        const entries = Object.entries(fields);
        return (
          <List.Item key={id} data-testid="staff-timeline-item" borderWidth="1px" borderRadius="l2" p="3">
            <Heading as="h3" size="sm">
              {t(`pages:status.items.${type}.title`, { defaultValue: type })} · {date}
            </Heading>
            {entries.length > 0 && (
              <Text fontSize="sm" color="fg.muted">
                {entries.map(([k, v]) => `${t(`timelineFields.${k}`, { defaultValue: k })}: ${show(v, t)}`).join('; ')}
              </Text>
            )}
          </List.Item>
        );
      })}
    </List.Root>
  );
}

export function AuditTable({ entries, t, language }: { entries: AuditEntry[]; t: ConsoleT; language: string }) {
  if (!entries.length) return <Text>{t('dossier.auditEmpty')}</Text>;
  const json = (v: unknown) => (v === null || v === undefined ? t('none') : JSON.stringify(v));
  return (
    <DataTable caption={t('dossier.auditCaption')}>
      <thead>
        <tr>
          {(['at', 'staff', 'action', 'before', 'after'] as const).map((c) => (
            <HeaderCell key={c}>{t(`dossier.auditColumns.${c}`)}</HeaderCell>
          ))}
        </tr>
      </thead>
      <tbody>
        {entries.map((e) => (
          <tr key={e.id} data-testid="audit-row">
            <Cell>{formatDateTime(e.at, language)}</Cell>
            <Cell>{e.staff ?? (e.actor ? t('dossier.opsActor', { name: e.actor }) : t('dossier.opsToken'))}</Cell>
            <Cell>{t(`dossier.auditActions.${e.action}`, { defaultValue: e.action })}</Cell>
            <Cell>
              <Box as="code" fontSize="xs" overflowWrap="anywhere">
                {json(e.before)}
              </Box>
            </Cell>
            <Cell>
              <Box as="code" fontSize="xs" overflowWrap="anywhere">
                {json(e.after)}
              </Box>
            </Cell>
          </tr>
        ))}
      </tbody>
    </DataTable>
  );
}
