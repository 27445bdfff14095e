/**
 * The API calls of `npm run bench:api` (scripts/bench-api.ts), timed: a registration, searches one
 * after the other, and one applicant's way from the registration to the first photo upload.
 */
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { NEW_OPEN } from './api-settings.ts';

export interface CallResult {
  status: number;
  body: { message?: string; payload?: unknown } | null;
  ms: number;
}

export async function call(base: string, method: string, url: string, options: { token?: string; json?: unknown; form?: FormData } = {}): Promise<CallResult> {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | FormData | undefined;
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.form) body = options.form;
  const started = performance.now();
  const res = await fetch(base + url, { method, headers, body });
  const text = await res.text();
  const ms = performance.now() - started;
  let parsed: CallResult['body'] = null;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = null;
  }
  return { status: res.status, body: parsed, ms };
}

export async function ok<R extends CallResult>(result: Promise<R>, what: string): Promise<R> {
  const r = await result;
  if (r.status !== 200) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`);
  return r;
}

export async function register(base: string, partnerId: number, type: 1 | 2): Promise<CallResult & { token?: string }> {
  const r = await call(base, 'POST', '/api/register', {
    json: {
      email: `bench.${randomBytes(6).toString('hex')}@exemplu.ro`,
      password: 'parola-de-bench-1',
      phone: '0712345678',
      referral_code: null,
      cookies: [],
      marketing_accepted: true,
      registration_type: type,
      partner_id: partnerId,
    },
  });
  const payload = r.body?.payload as { access_token?: string } | undefined;
  return { ...r, token: payload?.access_token };
}

/** Runs `task` over `items`, `width` at a time. */
export async function inBatches<T, R>(items: T[], width: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += width) out.push(...(await Promise.all(items.slice(i, i + width).map(task))));
  return out;
}

/** Round trips of GETs taken one after the other, cycling through `urls` (after one warm-up pass). */
export async function searchTimes(base: string, urls: string[], calls = 210): Promise<number[]> {
  for (const url of urls) await ok(call(base, 'GET', url), url);
  const times: number[] = [];
  for (let i = 0; i < calls; i++) times.push((await ok(call(base, 'GET', urls[i % urls.length]), urls[i % urls.length])).ms);
  return times;
}

/** A phone photo as the browser sends it (scaled to 1920 px on its longest side, JPEG). */
export async function samplePhoto(): Promise<Buffer> {
  const { data, info } = await sharp({ create: { width: 1920, height: 1440, channels: 3, background: '#8a9bb0', noise: { type: 'gaussian', mean: 120, sigma: 25 } } })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return sharp(data, { raw: info }).blur(1.2).jpeg({ quality: 82 }).toBuffer();
}

export const SCENARIO_CALLS = ['register', 'open', 'questionnaire', 'identity session', 'upload'] as const;
export type ScenarioCall = (typeof SCENARIO_CALLS)[number];

/** One applicant of the crowd: register → open → questionnaire → identity session → one photo upload; its error, or null. */
export async function applicant(bases: string[], partnerId: number, photo: Buffer, times: Record<ScenarioCall, number[]>): Promise<string | null> {
  // Each call goes to the next instance in turn (one instance: always the same).
  let turn = 0;
  const next = () => bases[turn++ % bases.length];
  const step = async (name: ScenarioCall, run: () => Promise<CallResult>) => {
    const r = await run();
    times[name].push(r.ms);
    if (r.status !== 200) throw new Error(`${name}: ${r.status} ${r.body?.message ?? ''}`);
    return r;
  };
  try {
    const reg = await register(next(), partnerId, 2);
    times.register.push(reg.ms);
    if (reg.status !== 200 || !reg.token) throw new Error(`register: ${reg.status} ${reg.body?.message ?? ''}`);
    const token = reg.token;
    await step('open', () => call(next(), 'GET', NEW_OPEN, { token }));
    await step('questionnaire', () =>
      call(next(), 'POST', NEW_OPEN, { token, json: { current_step_identifier: 'requesting-company-step-0', reasons: ['niciuna'] } }),
    );
    const session = await step('identity session', () => call(next(), 'POST', '/api/veriff/create-veriff-session', { token, json: {} }));
    const sessionId = (session.body?.payload as { session_id: string }).session_id;
    await step('upload', () => {
      const form = new FormData();
      form.append('session_id', sessionId);
      form.append('context', 'document-front');
      form.append('media_file', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'buletin-fata.jpg');
      return call(next(), 'POST', '/api/veriff/upload-image', { token, form });
    });
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}
