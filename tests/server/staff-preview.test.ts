import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { testApp, uniqueEmail } from './helpers';

const OPS_TOKEN = 'ops-test-token-0123456789abcdef';
const PASSWORD = 'parola-personal-1';

/** A staff member of the role, signed in: their bearer headers. */
async function staffHeaders(role: 'operator' | 'editor'): Promise<Record<string, string>> {
  const email = uniqueEmail(role);
  const added = await app.inject({ method: 'POST', url: '/api/ops/staff', headers: { authorization: `Bearer ${OPS_TOKEN}`, 'x-ops-actor': 'Ana Operator' }, payload: { email, password: PASSWORD, role } });
  expect(added.statusCode).toBe(201);
  const login = await app.inject({ method: 'POST', url: '/api/staff/login', payload: { email, password: PASSWORD } });
  return { authorization: `Bearer ${login.json().payload.access_token as string}`, 'x-requested-with': 'XMLHttpRequest' };
}

const FLOWS = path.resolve('flows');
const SCHEMAS = path.resolve('schemas');
let dir: string;
let schemasDir: string;
let app: FastifyInstance;
let headers: Record<string, string> = {};

beforeAll(async () => {
  // The preview reads a copy of flows/, as the e2e server does: the test edits it.
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'preview-flows-'));
  for (const f of fs.readdirSync(FLOWS)) fs.copyFileSync(path.join(FLOWS, f), path.join(dir, f));
  schemasDir = fs.mkdtempSync(path.join(os.tmpdir(), 'preview-schemas-'));
  for (const f of fs.readdirSync(SCHEMAS)) fs.copyFileSync(path.join(SCHEMAS, f), path.join(schemasDir, f));
  app = await testApp({ previewFlowsDir: dir, previewSchemasDir: schemasDir, opsToken: OPS_TOKEN });
  headers = await staffHeaders('editor');
}, 60_000);

afterAll(async () => {
  await app.close();
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(schemasDir, { recursive: true, force: true });
});

const validate = (body: Record<string, unknown>) => app.inject({ method: 'POST', url: '/api/staff/preview/validate', headers, payload: body });
const card = { file: 'new-pfa.json', step: 'requesting-company-step-8', partner: 'neafiliat', activity: null, endpoint: '/api/registration/collect/card' };

describe('GET /api/staff/preview', () => {
  it('answers the flow files of the preview folder, the step schemas, partners with prices and no flows:check problem', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/staff/preview', headers });
    expect(res.statusCode).toBe(200);
    const { payload } = res.json();
    expect(payload.flows.map((f: { file: string }) => f.file)).toEqual(['existing-pfa.json', 'new-pfa.json']);
    expect(Object.keys(payload.schemas)).toContain('card.json');
    expect(payload.problems).toEqual([]);
    expect(payload.partners.map((p: { slug: string }) => p.slug)).toEqual(expect.arrayContaining(['neafiliat', 'icredit', 'curier']));
    expect(payload.partners.find((p: { slug: string }) => p.slug === 'neafiliat').prices[0]).toEqual(expect.objectContaining({ stripe_id: expect.any(String), amount: expect.any(Number) }));
    expect(payload.activities).toContainEqual(expect.objectContaining({ code: 'taxi' }));
  });

  it('shows an edit of a flow file at the next call, and lists its flows:check problems', async () => {
    const file = path.join(dir, 'new-pfa.json');
    const original = fs.readFileSync(file, 'utf8');
    try {
      const flow = JSON.parse(original);
      flow.steps[8].title = 'steps:card.titleTypo';
      fs.writeFileSync(file, JSON.stringify(flow));
      const { payload } = (await app.inject({ method: 'GET', url: '/api/staff/preview', headers })).json();
      expect(payload.flows.find((f: { file: string }) => f.file === 'new-pfa.json').flow.steps[8].title).toBe('steps:card.titleTypo');
      expect(payload.problems).toContainEqual(expect.objectContaining({ level: 'error', file: 'new-pfa.json', path: '#/steps/8/title' }));

      fs.writeFileSync(file, '{ "steps": [');
      const broken = (await app.inject({ method: 'GET', url: '/api/staff/preview', headers })).json().payload;
      expect(broken.flows.map((f: { file: string }) => f.file)).toEqual(['existing-pfa.json']);
      expect(broken.problems).toContainEqual(expect.objectContaining({ level: 'error', file: 'new-pfa.json', message: expect.stringContaining('not valid JSON') }));
    } finally {
      fs.writeFileSync(file, original);
    }
  });
});

describe('POST /api/staff/preview/validate', () => {
  it('answers the payload a valid step body would send, against the schema on disk', async () => {
    const body = { ghiseu_card_requested: 1, current_step_identifier: 'requesting-company-step-8' };
    const res = await validate({ ...card, body });
    expect(res.statusCode).toBe(200);
    expect(res.json().payload).toEqual({ endpoint: card.endpoint, body, checked: true });
  });

  it('validates against the step schema as it is on disk now (an edit needs no restart)', async () => {
    const file = path.join(schemasDir, 'card.json');
    const original = fs.readFileSync(file, 'utf8');
    const body = { ghiseu_card_requested: 1, current_step_identifier: 'requesting-company-step-8' };
    try {
      const schema = JSON.parse(original);
      schema.properties.ghiseu_card_requested = { ...schema.properties.ghiseu_card_requested, enum: [0] };
      delete schema.properties.ghiseu_card_requested.const;
      fs.writeFileSync(file, JSON.stringify(schema));
      const res = await validate({ ...card, body });
      expect(res.statusCode).toBe(422);
      expect(res.json().payload).toHaveProperty('ghiseu_card_requested');
      const { payload } = (await app.inject({ method: 'GET', url: '/api/staff/preview', headers })).json();
      expect(payload.schemas['card.json'].properties.ghiseu_card_requested.enum).toEqual([0]);

      // A schema file that is not JSON: a problem naming the file (line and column) and a 422, never a 500.
      fs.writeFileSync(file, '{');
      const broken = (await app.inject({ method: 'GET', url: '/api/staff/preview', headers })).json().payload;
      expect(broken.problems).toContainEqual(expect.objectContaining({ level: 'error', file: 'schemas/card.json', message: expect.stringMatching(/line 1, column 2/) }));
      expect((await validate({ ...card, body })).statusCode).toBe(422);
    } finally {
      fs.writeFileSync(file, original);
    }
    expect((await validate({ ...card, body })).statusCode).toBe(200);
  });

  it('answers 422 with the field errors of an invalid body', async () => {
    const res = await validate({ ...card, body: { current_step_identifier: 'requesting-company-step-8' } });
    expect(res.statusCode).toBe(422);
    expect(res.json().payload).toHaveProperty('ghiseu_card_requested');
  });

  it("checks a branch's body with its route's schema (the questionnaire's mark-as-lost)", async () => {
    const lost = { file: 'new-pfa.json', step: 'requesting-company-step-0', partner: 'neafiliat', activity: null, endpoint: '/api/mark-as-lost' };
    expect((await validate({ ...lost, body: { reason_identifier: 'platitor-tva' } })).json().payload.checked).toBe(true);
    expect((await validate({ ...lost, body: { reason_identifier: '' } })).statusCode).toBe(422);
  });

  it("checks the pricing step's follow-up call (the payment redirect) with its route's schema", async () => {
    const pricing = { file: 'new-pfa.json', step: 'requesting-company-step-9', partner: 'neafiliat', activity: null, endpoint: '/api/stripe/redirect' };
    const ok = await validate({ ...pricing, body: { selected_stripe_id: 'price_ghiseu_standard_monthly' } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().payload.checked).toBe(true);
    const bad = await validate({ ...pricing, body: {} });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().payload).toHaveProperty('selected_stripe_id');
  });

  it('resolves the variant: the credit partner’s steps and an activity variant', async () => {
    const res = await validate({ file: 'new-pfa.json', step: 'requesting-company-step-3', partner: 'icredit', activity: 'taxi', endpoint: '/api/registration/collect/diploma-documents', body: { current_step_identifier: 'requesting-company-step-3', send_diploma_later: true } });
    expect(res.statusCode).toBe(200);
  });

  it('refuses bad inputs with 422 and field errors', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ ...card, file: '../package.json', body: {} }, 'file'],
      [{ ...card, file: 'nope.json', body: {} }, 'file'],
      [{ ...card, partner: 'necunoscut', body: {} }, 'partner'],
      [{ ...card, step: 'requesting-company-step-99', body: {} }, 'step'],
      [{ ...card, endpoint: '/api/registration/send', body: {} }, 'endpoint'],
      [{ ...card }, 'body'],
    ];
    for (const [body, field] of cases) {
      const res = await validate(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(Object.keys(res.json().payload), JSON.stringify(body)).toContain(field);
    }
  });
});

describe('who may use the preview', () => {
  const body = { ...card, body: { ghiseu_card_requested: 1, current_step_identifier: 'requesting-company-step-8' } };

  it('answers 403 to an operator (the preview is the editors\')', async () => {
    const operator = await staffHeaders('operator');
    expect((await app.inject({ method: 'GET', url: '/api/staff/preview', headers: operator })).statusCode).toBe(403);
    expect((await app.inject({ method: 'POST', url: '/api/staff/preview/validate', headers: operator, payload: body })).statusCode).toBe(403);
  });
});
