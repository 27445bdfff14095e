/**
 * Issue 17: the overview's primary CAEN code is prefilled from the chosen activity (each activity's
 * default code is seed data, server/db/seed/activities.json), while the applicant has not chosen
 * codes of their own; the unknown activity leaves the codes to operators (spec 001 §6); the credit
 * partner's locked codes are not joined by it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { caenId, CURRENT_CAEN_REVISION } from '../../server/db/caen';
import { auth, placeAtStep, registerUser, testApp, type RegisteredUser } from './helpers';

let app: FastifyInstance;
beforeAll(async () => {
  app = await testApp();
});
afterAll(() => app.close());

const STEP = 'requesting-company-step-2';
const rev3 = (code: string) => caenId(CURRENT_CAEN_REVISION, code);
const post = (token: string, url: string, payload: object) => app.inject({ method: 'POST', url, payload, headers: auth(token) });
const overviewCodes = async (user: RegisteredUser) =>
  (await app.inject({ method: 'GET', url: '/api/registration/open', headers: auth(user.token) })).json().payload.form_data.codes as number[] | undefined;
const choose = (user: RegisteredUser, activity_id: number, activity_details: string | null = null) =>
  post(user.token, '/api/registration/collect/company', { activity_id, activity_details, current_step_identifier: STEP });
const back = (user: RegisteredUser) => post(user.token, '/api/registration/steps/previous', { current_step_identifier: 'requesting-company-step-3' });

describe('the activity step prefills the primary CAEN code', () => {
  it('every activity of the seed names a CAEN Rev.3 class, or none (the unknown activity)', () => {
    const { activities } = JSON.parse(fs.readFileSync('server/db/seed/activities.json', 'utf8')) as { activities: { code: string; caen: string | null }[] };
    const { codes } = JSON.parse(fs.readFileSync('server/db/seed/caen-rev3.json', 'utf8')) as { codes: { code: string }[] };
    const known = new Set(codes.map((c) => c.code));
    for (const activity of activities) {
      if (activity.code === 'question-mark') expect(activity.caen).toBeNull();
      else expect(known.has(activity.caen as string), `${activity.code}: ${activity.caen}`).toBe(true);
    }
    const byCode = Object.fromEntries(activities.map((a) => [a.code, a.caen]));
    expect(byCode).toMatchObject({ 'consultanta-it': '6220', curier: '5320', taxi: '4933', 'consultant-credite': '6619', medicina: '8621', psihoterapeut: '8693', 'web-design': '6210' });
  });

  it('IT consulting → 6220 as the primary code, shown by the overview', async () => {
    const user = await registerUser(app);
    await placeAtStep(app, user, STEP);
    const res = await choose(user, 1);
    expect(res.statusCode).toBe(200);
    expect(res.json().payload.form_data).toMatchObject({ activity: 'consultanta-it', codes: [rev3('6220')] });
    await placeAtStep(app, user, 'requesting-company-step-7');
    const overview = await app.inject({ method: 'GET', url: '/api/registration/overview', headers: auth(user.token) });
    expect(overview.statusCode).toBe(200);
    expect(overview.json().payload.codes).toEqual([
      {
        id: rev3('6220'),
        code: '6220',
        name: 'Activități de consultanță în tehnologia informației și de management (gestiune și exploatare) a mijloacelor de calcul',
        is_primary: 1,
        revision: 'CAEN Rev.3',
      },
    ]);
  });

  it('another activity after going back follows it; codes the applicant chose stay', async () => {
    const user = await registerUser(app);
    await placeAtStep(app, user, STEP);
    await choose(user, 2);
    expect(await overviewCodes(user)).toEqual([rev3('5320')]);
    await back(user);
    await choose(user, 3);
    expect(await overviewCodes(user)).toEqual([rev3('4933')]);

    // The applicant's own choice (saved at the overview) is never replaced.
    await placeAtStep(app, user, STEP, { codes: [rev3('6210'), rev3('4933')] });
    await choose(user, 2);
    expect(await overviewCodes(user)).toEqual([rev3('6210'), rev3('4933')]);
  });

  it('the unknown activity leaves the codes empty for operators, clearing a prefilled one', async () => {
    const user = await registerUser(app);
    await placeAtStep(app, user, STEP);
    await choose(user, 99, 'Olărit');
    expect(await overviewCodes(user)).toBeUndefined();
    await back(user);
    await choose(user, 6);
    expect(await overviewCodes(user)).toEqual([rev3('8621')]);
    await back(user);
    await choose(user, 99, 'Olărit');
    expect(await overviewCodes(user)).toEqual([]);
  });

  it('under the credit partner the locked codes come first at the overview: no prefill beside them', async () => {
    const user = await registerUser(app, { partner: 'icredit' });
    await placeAtStep(app, user, STEP);
    const res = await choose(user, 2);
    expect(res.statusCode).toBe(200);
    expect(res.json().payload.form_data.codes).toBeUndefined();
  });

  it('a refused activity changes nothing (no codes either)', async () => {
    const user = await registerUser(app);
    await placeAtStep(app, user, STEP);
    const res = await choose(user, 12345);
    expect(res.statusCode).toBe(422);
    expect(res.json().payload).toEqual({ activity_id: ['Alege o activitate din listă.'] });
    expect(await overviewCodes(user)).toBeUndefined();
  });

  it('steps/next over the activity keeps the prefilled code', async () => {
    const user = await registerUser(app);
    await placeAtStep(app, user, STEP);
    await choose(user, 1);
    await back(user);
    const next = await post(user.token, '/api/registration/steps/next', { current_step_identifier: STEP });
    expect(next.statusCode).toBe(200);
    expect(next.json().payload.form_data.codes).toEqual([rev3('6220')]);
  });
});
