import type { FastifyPluginAsync } from 'fastify';
import { and, asc, count, ilike, or, type SQL } from 'drizzle-orm';
import { searchKey } from '../../src/core/counties';
import { caenCodes } from '../db/schema';
import { FieldValidationError } from '../lib/http-errors';
import type { UserRow } from '../lib/tokens';
import { staleStep } from '../registration/model';
import { loadRequest } from '../registration/serialize';
import { saveOverview } from '../registration/store';
import { checkCodes, cnpProblem, codesOf, MESSAGES, nameProblem, overviewOptions, overviewStep } from '../registration/overview';
import { DB_INT_MAX, dbId, dbOffset } from '../lib/input-limits';
import { arrayOf, bool, int, nullStr, obj, page, replies, requestWith, str } from '../lib/api-schemas';

const caenCode = obj({ id: int, code: str, name: str });
/** The request's codes, primary first (spec 001 §3 "CAEN code"). */
const requestCodes = arrayOf(obj({ id: int, code: str, name: str, is_primary: { type: 'integer', enum: [0, 1] } }));
const overview = obj({
  company_name: nullStr,
  activity: nullStr,
  codes: requestCodes,
  email: str,
  phone: str,
  locked_codes: arrayOf(str),
  codes_by_operator: bool,
  editable: bool,
});

const MIN_SEARCH = 3;
const FIELDS = ['first_name', 'last_name', 'personal_code', 'codes'] as const;
type Field = (typeof FIELDS)[number];

interface UpdateBody {
  first_name?: string;
  last_name?: string;
  personal_code?: string;
  codes?: number[];
  /** The spec's one-field form: `{ field, value }` (errors then under `value`). */
  field?: Field;
  value?: unknown;
}

/** `%term%` for LIKE, with the wildcard characters of the term escaped. */
const likeEscaped = (term: string) => term.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The overview step's own calls (spec 001 §2 item 4, §5, §7): the CAEN search, the inline edits of
 * the profile and the codes (`update/form-data`), the data the step shows, and marking the request
 * submitted once `POST /api/registration/send` (the generic step route + `sendRule`) succeeded.
 */
const overviewRoutes: FastifyPluginAsync = async (app) => {
  app.get<{ Params: { offset: number; size: number }; Querystring: { search_term?: string } }>(
    '/nomenclature/code/index/:offset/:size',
    {
      schema: {
        params: {
          type: 'object',
          required: ['offset', 'size'],
          properties: { offset: dbOffset, size: { type: 'integer', minimum: 1, maximum: 100 } },
        },
        querystring: { type: 'object', properties: { search_term: { type: 'string', maxLength: 100 } } },
        response: replies(page(caenCode), 'A page of CAEN codes'),
      },
    },
    async (request) => {
      const { offset, size } = request.params;
      const term = request.query.search_term?.trim() ?? '';
      if (term && term.length < MIN_SEARCH) throw new FieldValidationError({ search_term: ['Introdu cel puțin 3 caractere.'] });
      const conditions: SQL[] = [];
      if (term) {
        const digits = term.replace(/[.\s]/g, '');
        const byCode = /^\d+$/.test(digits) ? ilike(caenCodes.code, `${likeEscaped(digits)}%`) : undefined;
        const byName = ilike(caenCodes.searchName, `%${likeEscaped(searchKey(term))}%`);
        conditions.push(byCode ? (or(byCode, byName) as SQL) : byName);
      }
      const where = conditions.length ? and(...conditions) : undefined;
      const [rows, [{ total }]] = await Promise.all([
        app.db
          .select({ id: caenCodes.id, code: caenCodes.code, name: caenCodes.name })
          .from(caenCodes)
          .where(where)
          .orderBy(asc(caenCodes.code))
          .limit(size)
          .offset(offset),
        app.db.select({ total: count() }).from(caenCodes).where(where),
      ]);
      return { message: '', payload: { data: rows, total } };
    },
  );

  /** What the overview shows besides the profile: PFA name, codes with their names, e-mail and phone (read-only). */
  app.get('/registration/overview', { preHandler: app.authenticate, schema: { response: replies(overview, 'What the overview step shows') } }, async (request) => {
    const user = request.user as UserRow;
    const { request: row, resolved } = await loadRequest(app, user, app.flows.byType[2]);
    const step = overviewStep(resolved);
    const options = overviewOptions(step);
    return {
      message: '',
      payload: {
        company_name: typeof row.formData.company_name === 'string' ? row.formData.company_name : null,
        activity: typeof row.formData.activity === 'string' ? row.formData.activity : null,
        codes: await codesOf(app.db, row.formData),
        email: user.email,
        phone: user.phone,
        locked_codes: options.lockedCodes,
        codes_by_operator: options.codesByOperator,
        editable: row.step === step?.id && row.status !== 'submitted',
      },
    };
  });

  app.post<{ Body: UpdateBody }>(
    '/registration/update/form-data',
    {
      preHandler: app.authenticate,
      schema: {
        body: {
          type: 'object',
          properties: {
            first_name: { type: 'string', maxLength: 100 },
            last_name: { type: 'string', maxLength: 100 },
            personal_code: { type: 'string', maxLength: 20 },
            codes: { type: 'array', maxItems: 20, items: dbId },
            field: { type: 'string', enum: [...FIELDS] },
            value: {},
          },
        },
        response: replies(requestWith({ codes: requestCodes }), 'The request, with its codes named'),
      },
    },
    async (request) => {
      const user = request.user as UserRow;
      const { request: row, resolved, serialize } = await loadRequest(app, user, app.flows.byType[2]);
      const step = overviewStep(resolved);
      if (!step || row.step !== step.id) throw staleStep(await serialize());
      const body = request.body ?? {};
      const values: Partial<Record<Field, unknown>> = {};
      let oneField: Field | null = null;
      if (body.field) {
        oneField = body.field;
        values[body.field] = body.value;
      }
      for (const f of FIELDS) if (body[f] !== undefined) values[f] = body[f];
      if (!Object.keys(values).length) throw new FieldValidationError({ field: ['Alege câmpul de modificat.'] });

      const errors: Record<string, string[]> = {};
      const profile = { ...row.profile };
      const formData = { ...row.formData };
      if ('last_name' in values) {
        const problem = nameProblem(values.last_name, MESSAGES.lastNameRequired);
        if (problem) errors.last_name = [problem];
        else profile.last_name = String(values.last_name).trim();
      }
      if ('first_name' in values) {
        const problem = nameProblem(values.first_name, MESSAGES.firstNameRequired);
        if (problem) errors.first_name = [problem];
        else profile.first_name = String(values.first_name).trim();
      }
      if ('personal_code' in values) {
        const problem = cnpProblem(values.personal_code);
        if (problem) errors.personal_code = [problem];
        else profile.personal_code = String(values.personal_code).trim();
      }
      if ('codes' in values) {
        const raw = values.codes;
        const ids = Array.isArray(raw) ? raw.map(Number) : null;
        const problem =
          !ids || ids.some((id) => !Number.isInteger(id) || id < 1 || id > DB_INT_MAX)
            ? MESSAGES.unknownCode
            : await checkCodes(app.db, ids, overviewOptions(step), row.formData.codes);
        if (problem) errors.codes = [problem];
        else formData.codes = ids;
      }
      if (Object.keys(errors).length) {
        const first = Object.values(errors)[0][0];
        throw new FieldValidationError(oneField ? { value: errors[oneField] } : errors, first);
      }
      const saved = await saveOverview(app.db, row, { profile, formData });
      if (!saved) throw staleStep(await serialize());
      return { message: MESSAGES.saved, payload: { ...(await serialize(saved)), codes: await codesOf(app.db, saved.formData) } };
    },
  );
};

export default overviewRoutes;
