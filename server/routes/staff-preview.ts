import fs from 'node:fs';
import path from 'node:path';
import type { FastifyPluginAsync, onRequestHookHandler } from 'fastify';
import { asc, eq, inArray } from 'drizzle-orm';
import { resolveFlow, type Flow } from '../../src/core/flow';
import { activities, partnerPrices, partners } from '../db/schema';
import { arrayOf, bool, int, nullStr, num, obj, record, replies, str } from '../lib/api-schemas';
import { checkFlows, checkInput, flowEndpoints, readFlowFiles } from '../flows/check';
import { FLOWS_DIR, SCHEMAS_DIR, readSchemas, stepAjv } from '../flows/registry';
import { FieldValidationError, HttpError, fieldErrorsFromValidation } from '../lib/http-errors';
import type { FastifyError } from 'fastify';
import { stepBodySchema } from '../registration/step-endpoints';

/** A flow file's name in the preview folder: `new-pfa.json`. */
const FILE_NAME = { type: 'string', pattern: '^[a-z0-9][a-z0-9-]{0,60}\\.json$' } as const;
const SLUG = { type: 'string', pattern: '^[a-z0-9-]{1,60}$' } as const;

const problem = obj({ level: str, file: str, path: str, message: str });
const partnerOffer = obj({
  id: int,
  name: str,
  slug: str,
  is_unaffiliated: bool,
  description: nullStr,
  footnote: nullStr,
  prices: arrayOf(obj({ id: int, description: str, stripe_id: str, amount: num, currency: str, interval: str })),
});

const PREVIEW = obj({
  flows: arrayOf(obj({ file: str, flow: record })),
  schemas: record,
  problems: arrayOf(problem),
  partners: arrayOf(partnerOffer),
  activities: arrayOf(obj({ id: int, code: str, name: str })),
});

const VALIDATED = obj({ endpoint: str, body: record, checked: bool });

interface ValidateBody {
  file: string;
  step: string;
  partner: string;
  activity: string | null;
  paid: boolean;
  form_data: Record<string, unknown>;
  endpoint: string;
  body: Record<string, unknown>;
}

/**
 * The staff preview's reads (issue 18 "Preview", role `editor`): the flow files of the preview folder
 * (`PREVIEW_FLOWS_DIR`, default flows/) and the step schemas, read from disk at each call so an edit
 * shows at the next reload without a rebuild or restart, with flows:check's problems; and the
 * validation of a step's payload against the schema on disk (the browser's validators are
 * precompiled at build time and the CSP forbids compiling one there). Nothing is written.
 */
const staffPreviewRoutes: FastifyPluginAsync<{ guard: onRequestHookHandler }> = async (app, { guard }) => {
  const dir = () => app.config.previewFlowsDir ?? FLOWS_DIR;
  const schemasDir = () => app.config.previewSchemasDir ?? SCHEMAS_DIR;

  /** The preview folder's flow files; one that is not JSON is a problem of its own (line and column), not a 500. */
  const readFiles = () => readFlowFiles(dir());

  async function partnerOffers() {
    const rows = await app.db.select().from(partners).where(eq(partners.isActive, true)).orderBy(asc(partners.sortOrder), asc(partners.id));
    const prices = rows.length
      ? await app.db
          .select()
          .from(partnerPrices)
          .where(inArray(partnerPrices.partnerId, rows.map((r) => r.id)))
          .orderBy(asc(partnerPrices.sortOrder), asc(partnerPrices.id))
      : [];
    return rows.map((p) => ({
      id: p.id,
      name: p.name,
      slug: p.slug,
      is_unaffiliated: p.isUnaffiliated,
      description: p.description,
      footnote: p.footnote,
      // As a request's `partner.prices` (serialize.ts): lei.
      prices: prices
        .filter((price) => price.partnerId === p.id)
        .map((price) => ({ id: price.id, description: price.description, stripe_id: price.stripePriceId, amount: price.amountBani / 100, currency: price.currency, interval: price.interval })),
    }));
  }

  app.get('/staff/preview', { onRequest: guard, schema: { response: replies(PREVIEW, 'The preview folder’s flow files, the step schemas, flows:check’s problems, partners and activities') } }, async () => {
    const flowFiles = readFiles();
    const files = flowFiles.files;
    const input = checkInput(flowFiles, (method, url) => app.hasRoute({ method, url }), { schemasDir: schemasDir() });
    // Every problem of the folder, each at its file (`new-pfa.json`, `schemas/card.json`) and pointer.
    const problems = checkFlows(input);
    // A file the meta-schema refuses cannot be resolved: it is listed by its problems only.
    const meetsMetaSchema = stepAjv().compile(input.metaSchema);
    const activityRows = await app.db.select({ id: activities.id, code: activities.code, name: activities.name }).from(activities).orderBy(asc(activities.sortOrder), asc(activities.id));
    return {
      message: '',
      payload: {
        flows: files.filter((f) => meetsMetaSchema(f.flow)) as { file: string; flow: Record<string, unknown> }[],
        schemas: Object.fromEntries(input.schemas),
        problems,
        partners: await partnerOffers(),
        activities: activityRows,
      },
    };
  });

  app.post<{ Body: ValidateBody }>(
    '/staff/preview/validate',
    {
      onRequest: guard,
      schema: {
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['file', 'step', 'partner', 'endpoint', 'body'],
          properties: {
            file: FILE_NAME,
            step: { type: 'string', minLength: 1, maxLength: 100 },
            partner: SLUG,
            activity: { anyOf: [SLUG, { type: 'null' }] },
            paid: { type: 'boolean', default: false },
            form_data: { type: 'object', default: {} },
            endpoint: { type: 'string', pattern: '^/api/[A-Za-z0-9/_-]{1,200}$' },
            body: { type: 'object' },
          },
        },
        response: replies(VALIDATED, 'The payload the step would send (checked: validated against a schema), or 422 with its field errors'),
      },
    },
    async (request) => {
      const { file, step: stepId, partner: slug, activity, paid, form_data: formData, endpoint, body } = request.body;
      const found = readFiles().files.find((f) => f.file === file);
      const meetsMetaSchema = stepAjv().compile(JSON.parse(fs.readFileSync(path.join(FLOWS_DIR, 'flow.schema.json'), 'utf8')) as object);
      if (!found || !meetsMetaSchema(found.flow)) throw new FieldValidationError({ file: ['Fișierul de flux nu există sau nu poate fi citit.'] });
      const [partner] = await app.db.select().from(partners).where(eq(partners.slug, slug));
      if (!partner) throw new FieldValidationError({ partner: ['Partener necunoscut.'] });
      const flow = found.flow as Flow;
      const resolved = resolveFlow(flow, { partner: partner.slug, unaffiliated: partner.isUnaffiliated, paid, activity, formData: { ...formData, ...(activity ? { activity } : {}) } });
      const step = resolved.allSteps.find((s) => s.id === stepId);
      if (!step) throw new FieldValidationError({ step: ['Pasul nu există în acest flux.'] });
      if (!flowEndpoints({ ...flow, steps: [step], variants: [] }).includes(endpoint)) throw new FieldValidationError({ endpoint: ['Pasul nu trimite la această adresă.'] });

      // The step's own submit: its body as the step route takes it, with the step schema as it is on disk now.
      const ajv = stepAjv();
      try {
        for (const schema of readSchemas(schemasDir()).values()) ajv.addSchema(schema);
      } catch (error) {
        throw new HttpError(422, `schemas/: ${(error as Error).message}`);
      }
      let schema: unknown = null;
      if (endpoint === step.submit.endpoint) {
        if (!ajv.getSchema(step.schema)) throw new HttpError(422, `Schema ${step.schema} nu există în schemas/.`);
        schema = stepBodySchema(step.schema);
      } else schema = app.registeredRoutes.find((r) => r.url === endpoint && [r.method].flat().includes('POST'))?.schema?.body ?? null; // a branch (mark-as-lost) or follow-up call: that route's own body schema
      if (!schema) return { message: '', payload: { endpoint, body, checked: false } };
      let validate: ReturnType<typeof ajv.compile>;
      try {
        validate = ajv.compile(schema as object);
      } catch (error) {
        // An edited step schema that is no valid JSON Schema (or a route schema naming one this Ajv lacks).
        throw new HttpError(422, `${step.schema}: ${(error as Error).message}`);
      }
      if (!validate(structuredClone(body))) {
        throw new FieldValidationError(fieldErrorsFromValidation({ validation: validate.errors } as unknown as FastifyError));
      }
      return { message: '', payload: { endpoint, body, checked: true } };
    },
  );
};

export default staffPreviewRoutes;
