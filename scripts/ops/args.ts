/** The operator command's arguments (`npm run ops -- <command> …`, scripts/ops.ts) read into a command. */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { TIMELINE_FIELDS, TIMELINE_TYPES, isIsoDate, isTimelineType, todayInRomania, type TimelineFieldKind } from '../../src/core/timeline';

/** Wrong use of the command (exit code 2, with a pointer to `help`). */
export class UsageError extends Error {}

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
