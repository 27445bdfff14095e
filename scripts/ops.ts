/**
 * The operator command (README "Operator command"): `npm run ops -- <command> …`. Staff add
 * status-timeline items and the trade register's documents to a dossier, and finalize it, through
 * the running server's operator API (`/api/ops/…`, server/routes/ops.ts): the embedded database
 * belongs to the server process, so this command never opens it.
 *
 *   npm run ops -- list [--search text] [--limit n]
 *   npm run ops -- show <dossier>
 *   npm run ops -- add <dossier> <type> [--date YYYY-MM-DD] [--field value …]
 *   npm run ops -- attach <dossier> <file…>
 *   npm run ops -- finalize <dossier> [--date YYYY-MM-DD]
 *   npm run ops -- download <dossier> [--out folder]
 *   npm run ops -- reject <dossier> [--date YYYY-MM-DD]
 *   npm run ops -- ask <dossier> --message "what is missing"
 *   npm run ops -- staff:add --email E --password P --role operator|editor
 *   npm run ops -- files:reencrypt
 *   npm run ops -- erase <e-mail> [--yes]
 *   npm run ops -- retention [--as-of YYYY-MM-DD] [--dry-run]
 *   npm run ops -- help
 *
 * A dossier is the request id or the applicant's e-mail. Server: OPS_URL (default
 * http://localhost:${PORT || 3000}); token: OPS_TOKEN, else the file ${DATA_DIR || ./data}/ops-token
 * that the server writes at start; operator: OPS_ACTOR, the name the audit log records for each
 * read and change (sent as `X-Ops-Actor`; required).
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { TIMELINE_FIELDS, TIMELINE_TYPES, isIsoDate, isTimelineType, todayInRomania, type TimelineFieldKind } from '../src/core/timeline';
import type { ReencryptSummary } from '../server/storage/encrypt-existing';

/** Wrong use of the command (exit code 2, with a pointer to `help`). */
export class UsageError extends Error {}
/** The command was understood but failed: the server said no, or could not be reached (exit code 1). */
export class OpsError extends Error {}

export type Command =
  | { name: 'help' }
  | { name: 'list'; search?: string; limit?: number }
  | { name: 'show'; dossier: string }
  | { name: 'add'; dossier: string; body: Record<string, unknown> }
  | { name: 'attach'; dossier: string; files: string[] }
  | { name: 'finalize'; dossier: string; date?: string }
  | { name: 'download'; dossier: string; out: string }
  | { name: 'reject'; dossier: string; date?: string }
  | { name: 'ask'; dossier: string; message: string }
  | { name: 'staff:add'; email: string; password: string; role: 'operator' | 'editor' }
  | { name: 'files:reencrypt' }
  | { name: 'erase'; email: string; yes: boolean }
  | { name: 'retention'; asOf?: string; dryRun: boolean };

/** Every field of every type, with its kind (a name has one kind in every type that has it). */
const FIELD_KINDS: Record<string, TimelineFieldKind> = Object.fromEntries(
  Object.values(TIMELINE_FIELDS).flatMap((fields) => Object.entries(fields).map(([name, field]) => [name, field.kind])),
);

const TRUE = ['true', 'da', 'yes', 'y', '1'];
const FALSE = ['false', 'nu', 'no', 'n', '0'];

/** `true`/`da`/`yes`/`1` and `false`/`nu`/`no`/`0` become booleans; anything else is sent as typed (the server explains). */
export function parseBoolean(value: string): boolean | string {
  const v = value.trim().toLowerCase();
  if (TRUE.includes(v)) return true;
  if (FALSE.includes(v)) return false;
  return value;
}

/**
 * `YYYY-MM-DD` as it is; `DD.MM.YYYY` (how dates are written in Romania) and `today`/`azi` become
 * `YYYY-MM-DD`; anything else is sent as typed (the server explains).
 */
export function parseDate(value: string, now = new Date()): string {
  const v = value.trim();
  if (/^(today|azi)$/i.test(v)) return todayInRomania(now);
  const ro = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/.exec(v);
  if (ro) {
    const iso = `${ro[3]}-${ro[2].padStart(2, '0')}-${ro[1].padStart(2, '0')}`;
    if (isIsoDate(iso)) return iso;
  }
  return v;
}

function parse<O extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: O) {
  try {
    return parseArgs({ args, options, allowPositionals: true as const, strict: true as const });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

function positionals(command: string, list: string[], names: string[], rest = false): string[] {
  if (list.length < names.length) throw new UsageError(`${command}: missing ${names.slice(list.length).map((n) => `<${n}>`).join(' ')}`);
  if (!rest && list.length > names.length) throw new UsageError(`${command}: unexpected argument "${list[names.length]}"`);
  return list;
}

/** The command line (after `npm run ops --`) as a command; throws UsageError. */
export function parseCommand(argv: string[]): Command {
  const [name, ...args] = argv;
  if (!name || name === 'help' || name === '--help' || name === '-h' || args.includes('--help') || args.includes('-h')) return { name: 'help' };
  switch (name) {
    case 'list': {
      const { values, positionals: extra } = parse(args, { search: { type: 'string' }, limit: { type: 'string' } });
      positionals('list', extra, []);
      const limit = values.limit === undefined ? undefined : Number(values.limit);
      if (limit !== undefined && (!Number.isInteger(limit) || limit < 1 || limit > 1000)) throw new UsageError('list: --limit must be a whole number from 1 to 1000');
      return { name: 'list', search: values.search as string | undefined, limit };
    }
    case 'show': {
      const [dossier] = positionals('show', parse(args, {}).positionals, ['dossier']);
      return { name: 'show', dossier };
    }
    case 'add': {
      const options = Object.fromEntries(['date', ...Object.keys(FIELD_KINDS)].map((field) => [field, { type: 'string' as const }]));
      const { values, positionals: list } = parse(args, options);
      const [dossier, type] = positionals('add', list, ['dossier', 'type']);
      if (!isTimelineType(type)) throw new UsageError(`add: unknown type "${type}"; types: ${TIMELINE_TYPES.join(', ')}`);
      const body: Record<string, unknown> = { type };
      for (const [field, value] of Object.entries(values)) {
        const kind = field === 'date' ? 'date' : FIELD_KINDS[field];
        body[field] = kind === 'boolean' ? parseBoolean(value as string) : kind === 'date' ? parseDate(value as string) : value;
      }
      return { name: 'add', dossier, body };
    }
    case 'attach': {
      const [dossier, ...files] = positionals('attach', parse(args, {}).positionals, ['dossier', 'file'], true);
      return { name: 'attach', dossier, files };
    }
    case 'finalize': {
      const { values, positionals: list } = parse(args, { date: { type: 'string' } });
      const [dossier] = positionals('finalize', list, ['dossier']);
      return { name: 'finalize', dossier, date: values.date === undefined ? undefined : parseDate(values.date as string) };
    }
    case 'download': {
      const { values, positionals: list } = parse(args, { out: { type: 'string' } });
      const [dossier] = positionals('download', list, ['dossier']);
      return { name: 'download', dossier, out: (values.out as string | undefined) || '.' };
    }
    case 'reject': {
      const { values, positionals: list } = parse(args, { date: { type: 'string' } });
      const [dossier] = positionals('reject', list, ['dossier']);
      return { name: 'reject', dossier, date: values.date === undefined ? undefined : parseDate(values.date as string) };
    }
    case 'ask': {
      const { values, positionals: list } = parse(args, { message: { type: 'string' } });
      const [dossier] = positionals('ask', list, ['dossier']);
      if (!values.message) throw new UsageError('ask: missing --message');
      return { name: 'ask', dossier, message: values.message as string };
    }
    case 'staff:add': {
      const { values, positionals: list } = parse(args, { email: { type: 'string' }, password: { type: 'string' }, role: { type: 'string' } });
      positionals('staff:add', list, []);
      const missing = (['email', 'password', 'role'] as const).filter((option) => !values[option]);
      if (missing.length) throw new UsageError(`staff:add: missing ${missing.map((m) => `--${m}`).join(' ')}`);
      const role = values.role as string;
      if (role !== 'operator' && role !== 'editor') throw new UsageError(`staff:add: --role must be operator or editor, not "${role}"`);
      return { name: 'staff:add', email: values.email as string, password: values.password as string, role };
    }
    case 'files:reencrypt': {
      positionals('files:reencrypt', parse(args, {}).positionals, []);
      return { name: 'files:reencrypt' };
    }
    case 'erase': {
      const { values, positionals: list } = parse(args, { yes: { type: 'boolean' } });
      const [email] = positionals('erase', list, ['e-mail']);
      if (!email.includes('@')) throw new UsageError(`erase: "${email}" is not an e-mail address`);
      return { name: 'erase', email, yes: values.yes === true };
    }
    case 'retention': {
      const { values, positionals: list } = parse(args, { 'as-of': { type: 'string' }, 'dry-run': { type: 'boolean' } });
      positionals('retention', list, []);
      const asOf = values['as-of'] === undefined ? undefined : parseDate(values['as-of'] as string);
      return { name: 'retention', asOf, dryRun: values['dry-run'] === true };
    }
    default:
      throw new UsageError(`unknown command "${name}"`);
  }
}

export interface Settings {
  url: string;
  token: string;
  /** OPS_ACTOR: who runs the command, sent as `X-Ops-Actor` (the audit log records it). */
  actor: string;
}

/** OPS_ACTOR trimmed: 1–100 printable characters, Latin-1 (an HTTP header); throws OpsError otherwise. */
export function actorFrom(env: NodeJS.ProcessEnv): string {
  const actor = (env.OPS_ACTOR ?? '').trim();
  if (!actor) throw new OpsError('no operator name: set OPS_ACTOR to your name (e.g. OPS_ACTOR="Ana Popescu"); the audit log records it for every read and change');
  if (actor.length > 100 || !/^[\x20-\x7e\xa0-\xff]+$/.test(actor)) {
    throw new OpsError('OPS_ACTOR must be 1–100 printable characters (letters without ș/ț diacritics, digits, spaces, punctuation)');
  }
  return actor;
}

/** OPS_URL, the token (OPS_TOKEN, else DATA_DIR/ops-token) and OPS_ACTOR; throws OpsError when there is no token or no operator. */
export function settingsFrom(env: NodeJS.ProcessEnv = process.env): Settings {
  const url = (env.OPS_URL || `http://localhost:${env.PORT || 3000}`).replace(/\/+$/, '');
  const actor = actorFrom(env);
  if (env.OPS_TOKEN) return { url, token: env.OPS_TOKEN, actor };
  const file = path.resolve(env.DATA_DIR || './data', 'ops-token');
  let token = '';
  try {
    token = fs.readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new OpsError(`cannot read the ops token ${file}: ${(error as Error).message}`);
  }
  if (!token) throw new OpsError(`no ops token: set OPS_TOKEN, or start the server once (it writes ${file}) and run this from the same folder or with the same DATA_DIR`);
  return { url, token, actor };
}

export type Fetch = typeof fetch;

interface Envelope {
  message?: string;
  payload?: unknown;
}

/** A GET of bytes (a document): the body as it is, or OpsError with the server's message. */
async function download(settings: Settings, fetchImpl: Fetch, route: string): Promise<Buffer> {
  let response: Response;
  try {
    response = await fetchImpl(`${settings.url}/api${route}`, { headers: { authorization: `Bearer ${settings.token}`, 'x-ops-actor': settings.actor } });
  } catch (error) {
    throw new OpsError(`cannot reach the server at ${settings.url} (${(error as Error).message}). Is it running (npm start)? Set OPS_URL to its address.`);
  }
  const data = Buffer.from(await response.arrayBuffer());
  if (!response.ok) {
    let message = response.statusText;
    try {
      message = (JSON.parse(data.toString('utf8')) as Envelope).message || message;
    } catch {
      // not JSON: the status text
    }
    throw new OpsError(`the server answered ${response.status}: ${message}`);
  }
  return data;
}

async function call(settings: Settings, fetchImpl: Fetch, method: string, route: string, body?: unknown): Promise<Envelope> {
  const headers: Record<string, string> = { authorization: `Bearer ${settings.token}`, 'x-ops-actor': settings.actor, accept: 'application/json' };
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  let response: Response;
  try {
    response = await fetchImpl(`${settings.url}/api${route}`, { method, headers, body: payload });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new OpsError(`cannot reach the server at ${settings.url} (${cause?.code ?? cause?.message ?? (error as Error).message}). Is it running (npm start)? Set OPS_URL to its address.`);
  }
  const text = await response.text();
  let json: Envelope = {};
  try {
    json = text ? (JSON.parse(text) as Envelope) : {};
  } catch {
    json = { message: text.slice(0, 200) };
  }
  if (!response.ok) {
    const lines = [`the server answered ${response.status}: ${json.message || response.statusText}`];
    if (response.status === 422 && json.payload && typeof json.payload === 'object') {
      for (const [field, messages] of Object.entries(json.payload as Record<string, unknown>)) {
        lines.push(`  ${field}: ${Array.isArray(messages) ? messages.join(' ') : String(messages)}`);
      }
    }
    if (response.status === 401) lines.push('  (check OPS_TOKEN, or the ops-token file of the server’s DATA_DIR)');
    throw new OpsError(lines.join('\n'));
  }
  return json;
}

const dossierRoute = (dossier: string) => `/ops/dossiers/${encodeURIComponent(dossier)}`;

interface DossierSummary {
  id: number;
  email: string;
  name: string | null;
  registration_type: number;
  step: string;
  status: string;
  paid: boolean;
  created_at: string;
  timeline_items: number;
}

interface DossierPayment {
  id: string;
  provider: string;
  status: string;
  amount: number;
  currency: string;
  paid_at: string | null;
  subscription_id: string | null;
  schedule_id: string | null;
}

interface Dossier extends DossierSummary {
  timeline: ({ id: number; type: string; date: string } & Record<string, unknown>)[];
  /** Older servers answer no payments. */
  payments?: DossierPayment[];
  trade_register_documents: { id: number; name: string }[];
  /** The contract and power-of-attorney request the applicant signed (made when the dossier was sent). */
  signed_documents?: { id: number; kind: string; name: string; size: number }[];
}

function describePayment(p: DossierPayment): string {
  return [
    p.id,
    p.provider,
    p.status,
    `${p.amount} ${p.currency}`,
    ...(p.paid_at ? [`paid ${p.paid_at.slice(0, 10)}`] : []),
    ...(p.subscription_id ? [`subscription=${p.subscription_id}`] : []),
    ...(p.schedule_id ? [`schedule=${p.schedule_id}`] : []),
  ].join('  ');
}


/** Rows as aligned columns. */
export function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd();
  return [line(header), ...rows.map(line)];
}

function describeItem(item: Dossier['timeline'][number]): string {
  const { id, type, date, ...fields } = item;
  const rest = Object.entries(fields).map(([k, v]) => `${k}=${v === null ? '-' : typeof v === 'string' && /\s/.test(v) ? JSON.stringify(v) : String(v)}`);
  return [`#${id}`, date, type, ...rest].join('  ');
}

function dossierLines(d: Dossier): string[] {
  return [
    `Dossier ${d.id}  ${d.email}${d.name ? `  (${d.name})` : ''}`,
    `  type ${d.registration_type}, step ${d.step}, status ${d.status}, ${d.paid ? 'paid' : 'not paid'}, created ${d.created_at.slice(0, 10)}`,
    `  timeline (${d.timeline.length}):`,
    ...(d.timeline.length ? d.timeline.map((item) => `    ${describeItem(item)}`) : ['    (none)']),
    ...(d.payments ? [`  payments (${d.payments.length}):`, ...(d.payments.length ? d.payments.map((p) => `    ${describePayment(p)}`) : ['    (none)'])] : []),
    `  trade register documents (${d.trade_register_documents.length}):`,
    ...(d.trade_register_documents.length ? d.trade_register_documents.map((doc) => `    #${doc.id}  ${doc.name}`) : ['    (none)']),
    `  signed documents (${d.signed_documents?.length ?? 0}):`,
    ...(d.signed_documents?.length ? d.signed_documents.map((doc) => `    #${doc.id}  ${doc.name}  (${doc.kind}, ${doc.size} bytes)`) : ['    (none)']),
  ];
}

/** What an erasure keeps, in the operator's words. */
const KEPT_NAMES: Record<string, string> = {
  payment: 'payment records (accounting law)',
  contract: 'signed legal-assistance contract',
  trade_register: 'dossier filed with the trade register (kept there, not by us)',
};

export const HELP = [
  'Operator command: status timeline and trade register documents of a dossier, through the running server.',
  '',
  'Usage: npm run ops -- <command> [arguments]',
  '',
  '  list [--search text] [--limit n]          dossiers, newest first (search: part of the e-mail; limit: default 100)',
  '  show <dossier>                            one dossier with its timeline and documents',
  '  add <dossier> <type> [--date YYYY-MM-DD] [--field value …]',
  '                                            add a timeline item (date: default today)',
  '  attach <dossier> <file…>                  attach the trade register\'s documents (the applicant downloads them as documente.zip)',
  '  finalize <dossier> [--date YYYY-MM-DD]    status "finalized" plus a finalized item (date: default today)',
  '  download <dossier> [--out folder]         save the PDFs the applicant signed (contract, power of attorney) into folder (default: here)',
  '  reject <dossier> [--date YYYY-MM-DD]      status "rejected" plus a rejected item (date: default today)',
  '  ask <dossier> --message "text"            mail the applicant which documents are missing (through the mail queue)',
  '  staff:add --email E --password P --role operator|editor',
  '                                            a staff account for the web console (/staff/login): operator = dossiers, editor = preview',
  '  files:reencrypt                           encrypt stored files still in plain text and rewrap those under an old key',
  '                                            (FILES_ENCRYPTION_OLD_KEYS) under FILES_ENCRYPTION_KEY; the server also does it at each start',
  '  erase <e-mail> [--yes]                    an applicant\'s written request for erasure (GDPR art. 17): shows what goes and what the law',
  '                                            keeps; with --yes erases the account for good and mails the applicant a confirmation',
  '  retention [--as-of YYYY-MM-DD] [--dry-run]',
  '                                            the retention job now (the server runs it daily): erases unfinished applications idle past',
  '                                            RETENTION_UNFINISHED_DAYS (after a warning mail), identity photos, lost applications\' data, kept',
  '                                            records past their date; one line per application (e-mail, what goes, why). --dry-run: changes',
  '                                            nothing; --as-of: measure against that day (a day to come only with --dry-run)',
  '  help                                      this text',
  '',
  '<dossier> is the request id (see list) or the applicant\'s e-mail.',
  '',
  'Types and their fields (booleans: true/false, da/nu, yes/no, 1/0; dates: YYYY-MM-DD, DD.MM.YYYY or today/azi; * = required):',
  ...TIMELINE_TYPES.map((type) => {
    const fields = Object.entries(TIMELINE_FIELDS[type]).map(
      ([name, f]) => `--${name}${f.required ? '*' : ''} <${f.kind}>${f.default !== undefined ? ` (default ${String(f.default)})` : ''}`,
    );
    return `  ${type.padEnd(18)}${fields.length ? fields.join(', ') : '(date only)'}`;
  }),
  '',
  'Examples:',
  '  npm run ops -- add ion.popescu@exemplu.ro name_reservation --pfa_name "POPESCU ION PFA" --hasNameReservation true',
  '  npm run ops -- add 12 document_review --isDataComplete false --hasDiploma false',
  '  npm run ops -- add 12 submitted --finalDossierSubmitted true --estimated_date 2026-12-04',
  '  npm run ops -- add 12 delayed --estimated_date 2026-12-11 --file_resubmission_date 2026-12-02',
  '  npm run ops -- attach 12 certificat-inregistrare.pdf rezolutie.pdf',
  '  npm run ops -- finalize 12 --date 2026-12-05',
  '  npm run ops -- download 12 --out dosar-12',
  '',
  'Server: OPS_URL (default http://localhost:$PORT, PORT default 3000).',
  'Token: OPS_TOKEN, else the file $DATA_DIR/ops-token (DATA_DIR default ./data) that the server writes at start.',
  'Operator: OPS_ACTOR (required), your name: the audit log records it for every read and change (the applicant sees it in their data export).',
].join('\n');

interface RetentionReport {
  as_of: string;
  dry_run: boolean;
  stopped: boolean;
  lines: { email: string; action: string; goes: string[]; kept: { kind: string; keep_until: string | null }[]; why: string; failed?: boolean }[];
  counts: Record<string, number>;
}

/** What each line's action did, and (dry run) would do. */
const RETENTION_ACTIONS: Record<string, [string, string]> = {
  warn: ['warning mailed', 'warning would be mailed'],
  erase: ['account erased', 'account would be erased'],
  id_media: ['ID photos deleted', 'ID photos would be deleted'],
  lost: ['reduced to the e-mail', 'would be reduced to the e-mail'],
  retained_record: ['kept record deleted', 'kept record would be deleted'],
};

/** One line per application: e-mail, what goes, why (and what an erasure keeps apart); then the counts. */
export function retentionLines(report: RetentionReport): string[] {
  const lines = [`Retention as of ${report.as_of}${report.dry_run ? ' (dry run: nothing was changed)' : ''}:`];
  if (!report.lines.length) lines.push('  nothing is past its retention period.');
  for (const l of report.lines) {
    const action = RETENTION_ACTIONS[l.action]?.[report.dry_run ? 1 : 0] ?? l.action;
    const goes = l.goes.length ? ` — goes: ${l.goes.join('; ')}` : '';
    const kept = l.kept.length ? ` — kept: ${l.kept.map((k) => `${KEPT_NAMES[k.kind] ?? k.kind}${k.keep_until ? ` until ${k.keep_until}` : ''}`).join(', ')}` : '';
    lines.push(`  ${l.email}  [${action}]${goes}${kept} — why: ${l.why}${l.failed ? '  (FAILED: see the server log; the next run tries again)' : ''}`);
  }
  const c = report.counts;
  lines.push(
    `${report.dry_run ? 'Would be' : 'Done'}: ${c.warned} warned, ${c.erased} erased, ${c.id_media} ID-photo sets deleted, ${c.lost} lost applications reduced, ${c.retained_records} kept records deleted, ${c.mails_deleted} old mails deleted, ${c.files_deleted} stored files deleted${c.failed ? `, ${c.failed} FAILED` : ''}${report.stopped ? ' (stopped before the end)' : ''}.`,
  );
  return lines;
}

/** Runs a command against the server; resolves to the lines to print, throws OpsError. */
export async function runCommand(command: Command, settings: Settings, fetchImpl: Fetch = fetch): Promise<string[]> {
  switch (command.name) {
    case 'help':
      return [HELP];
    case 'list': {
      const query = new URLSearchParams();
      if (command.search) query.set('search', command.search);
      if (command.limit) query.set('limit', String(command.limit));
      const qs = query.toString();
      const rows = (await call(settings, fetchImpl, 'GET', `/ops/dossiers${qs ? `?${qs}` : ''}`)).payload as DossierSummary[];
      if (!rows.length) return ['No dossiers.'];
      return table(
        ['ID', 'E-MAIL', 'NAME', 'TYPE', 'STEP', 'STATUS', 'PAID', 'CREATED', 'ITEMS'],
        rows.map((r) => [
          String(r.id),
          r.email,
          r.name ?? '-',
          String(r.registration_type),
          r.step,
          r.status,
          r.paid ? 'yes' : 'no',
          r.created_at.slice(0, 16).replace('T', ' '),
          String(r.timeline_items),
        ]),
      );
    }
    case 'show': {
      const dossier = (await call(settings, fetchImpl, 'GET', dossierRoute(command.dossier))).payload as Dossier;
      return dossierLines(dossier);
    }
    case 'add': {
      const answer = await call(settings, fetchImpl, 'POST', `${dossierRoute(command.dossier)}/timeline`, command.body);
      const { item, dossier } = answer.payload as { item: Dossier['timeline'][number]; dossier: Dossier };
      return [`Added ${item.type} #${item.id} (${item.date}) to dossier ${dossier.id} (${dossier.email}).`, ...dossierLines(dossier)];
    }
    case 'attach': {
      const form = new FormData();
      for (const [i, file] of command.files.entries()) {
        let data: Buffer;
        try {
          data = await fs.promises.readFile(file);
        } catch (error) {
          throw new OpsError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
        }
        form.append(`files[${i}]`, new Blob([new Uint8Array(data)]), path.basename(file));
      }
      const answer = await call(settings, fetchImpl, 'POST', `${dossierRoute(command.dossier)}/documents`, form);
      const { dossier } = answer.payload as { dossier: Dossier };
      return [`Attached ${command.files.length} file(s) to dossier ${dossier.id} (${dossier.email}).`, ...dossierLines(dossier)];
    }
    case 'download': {
      const dossier = (await call(settings, fetchImpl, 'GET', dossierRoute(command.dossier))).payload as Dossier;
      const documents = dossier.signed_documents ?? [];
      if (!documents.length) throw new OpsError(`dossier ${dossier.id} (${dossier.email}) has no signed documents yet: they are made when the applicant sends the dossier`);
      const lines: string[] = [];
      await fs.promises.mkdir(command.out, { recursive: true });
      for (const doc of documents) {
        const data = await download(settings, fetchImpl, `${dossierRoute(String(dossier.id))}/signed-documents/${doc.id}`);
        const target = path.join(command.out, path.basename(doc.name));
        try {
          // Never over an existing file: an operator's folder may hold another dossier's PDF of the same name.
          await fs.promises.writeFile(target, data, { flag: 'wx' });
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          throw new OpsError(code === 'EEXIST' ? `${target} already exists: choose another folder with --out` : `cannot write ${target}: ${code ?? (error as Error).message}`);
        }
        lines.push(`  ${target}  (${data.length} bytes)`);
      }
      return [`Saved ${documents.length} signed document(s) of dossier ${dossier.id} (${dossier.email}):`, ...lines];
    }
    case 'reject': {
      const answer = await call(settings, fetchImpl, 'POST', `${dossierRoute(command.dossier)}/reject`, command.date ? { date: command.date } : {});
      const { item, dossier } = answer.payload as { item: Dossier['timeline'][number]; dossier: Dossier };
      return [`Dossier ${dossier.id} (${dossier.email}) rejected on ${item.date}.`, ...dossierLines(dossier)];
    }
    case 'ask': {
      const answer = await call(settings, fetchImpl, 'POST', `${dossierRoute(command.dossier)}/missing-documents`, { message: command.message });
      const mail = answer.payload as { to: string; subject: string };
      return [`Mail "${mail.subject}" queued to ${mail.to}.`];
    }
    case 'staff:add': {
      const answer = await call(settings, fetchImpl, 'POST', '/ops/staff', { email: command.email, password: command.password, role: command.role });
      const staff = answer.payload as { id: number; email: string; role: string };
      return [`Staff account #${staff.id} ${staff.email} (${staff.role}) created: sign in at /staff/login.`];
    }
    case 'files:reencrypt': {
      const s = (await call(settings, fetchImpl, 'POST', '/ops/files/reencrypt', {})).payload as ReencryptSummary;
      return [
        s.skipped
          ? 'Another run was under way; nothing was done by this one.'
          : `Stored files under key "${s.key_id}": ${s.checked} checked, ${s.encrypted} encrypted, ${s.rewrapped} rewrapped, ${s.current} already current, ${s.missing} missing, ${s.failed} unreadable (${s.duration_ms} ms).`,
        ...(s.failed ? ['  Unreadable files are named in the server log (an unknown key id: add the key to FILES_ENCRYPTION_OLD_KEYS).'] : []),
      ];
    }
    case 'erase': {
      const answer = await call(settings, fetchImpl, 'POST', '/ops/users/erase', { email: command.email, erase: command.yes });
      const plan = answer.payload as { email: string; erased: boolean; goes: string[]; kept: { kind: string; count: number; keep_until: string | null }[]; files_deleted: number };
      const kept = plan.kept.length
        ? plan.kept.map((k) => `    ${KEPT_NAMES[k.kind] ?? k.kind} (${k.count})${k.keep_until ? ` until ${k.keep_until}` : ''}`)
        : ['    nothing'];
      return plan.erased
        ? [`Account ${plan.email} erased (${plan.files_deleted} stored file(s) deleted); a confirmation mail is queued.`, '  kept apart, as the law requires:', ...kept]
        : [`Erasing ${plan.email} would remove:`, ...plan.goes.map((g) => `    ${g}`), '  and keep apart, as the law requires:', ...kept, 'Nothing was changed. Run again with --yes to erase.'];
    }
    case 'retention': {
      const body: Record<string, unknown> = { dry_run: command.dryRun };
      if (command.asOf) body.as_of = command.asOf;
      return retentionLines((await call(settings, fetchImpl, 'POST', '/ops/retention', body)).payload as RetentionReport);
    }
    case 'finalize': {
      const answer = await call(settings, fetchImpl, 'POST', `${dossierRoute(command.dossier)}/finalize`, command.date ? { date: command.date } : {});
      const { item, dossier } = answer.payload as { item: Dossier['timeline'][number]; dossier: Dossier };
      return [`Dossier ${dossier.id} (${dossier.email}) finalized on ${item.date}.`, ...dossierLines(dossier)];
    }
  }
}

export interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
  fetch?: Fetch;
}

/** The whole command: parses, runs, prints; resolves to the exit code (0 done, 1 failed, 2 wrong use). */
export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env, io: Io = { out: console.log, err: console.error }): Promise<number> {
  let command: Command;
  try {
    command = parseCommand(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.err(`ops: ${error.message}\nRun "npm run ops -- help" for the commands.`);
    return 2;
  }
  try {
    const lines = command.name === 'help' ? [HELP] : await runCommand(command, settingsFrom(env), io.fetch ?? fetch);
    io.out(lines.join('\n'));
    return 0;
  } catch (error) {
    if (!(error instanceof OpsError)) throw error;
    io.err(`ops: ${error.message}`);
    return 1;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  process.exitCode = await main(process.argv.slice(2));
}
