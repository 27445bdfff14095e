import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth, placeAtStep, registerUser, testApp, type RegisteredUser } from './helpers';

/**
 * Issue 13, "no input produces a 5xx": ids past PostgreSQL's integer range, NUL and other control
 * characters, malformed multipart bodies and bodies over the limit all answer 4xx with the JSON
 * envelope `{ message, payload }`, and nothing is changed.
 */
const OPS_TOKEN = 'ops-test-token-0123456789abcdef';
const ops = { authorization: `Bearer ${OPS_TOKEN}`, 'x-ops-actor': 'Ana Operator' };
const BAD_TEXT = 'Textul conține caractere nepermise.';
const TOO_BIG = 2147483648;

let app: FastifyInstance;
let alice: RegisteredUser;

beforeAll(async () => {
  app = await testApp({ opsToken: OPS_TOKEN });
  alice = await registerUser(app, { type: 2 });
});

afterAll(async () => {
  await app.close();
});

function fieldErrors(res: { statusCode: number; json: () => unknown }): Record<string, string[]> {
  expect(res.statusCode, JSON.stringify(res.json())).toBe(422);
  const body = res.json() as { message: string; payload: Record<string, string[]> };
  expect(body.message).toBe('Datele trimise nu sunt valide.');
  return body.payload;
}

async function partnerId(): Promise<number> {
  const res = await app.inject({ method: 'GET', url: '/api/partner/index' });
  return (res.json().payload as { id: number }[])[0].id;
}

describe('ids past the integer range of the database', () => {
  it('register: partner_id 2^31 is a field error, no account is made', async () => {
    const email = `prea.mare.${Date.now()}@exemplu.ro`;
    const res = await app.inject({
      method: 'POST',
      url: '/api/register',
      payload: { email, password: 'parola-sigura', phone: '0712345678', marketing_accepted: true, registration_type: 2, partner_id: TOO_BIG },
    });
    expect(fieldErrors(res).partner_id).toEqual(['Valoarea poate fi cel mult 2147483647.']);
    const login = await app.inject({ method: 'POST', url: '/api/login', payload: { email, password: 'parola-sigura' } });
    expect(login.statusCode).not.toBe(200);
    // The largest id the column holds is still a valid request (no such partner: not a 5xx).
    const max = await app.inject({
      method: 'POST',
      url: '/api/register',
      payload: { email, password: 'parola-sigura', phone: '0712345678', marketing_accepted: true, registration_type: 2, partner_id: 2147483647 },
    });
    expect(max.statusCode).toBeLessThan(500);
    expect(await partnerId()).toBeGreaterThan(0);
  });

  it('city index: county_id 2^31, 1e308 and 2^63 are field errors', async () => {
    for (const value of ['2147483648', '1e308', '9223372036854775808']) {
      const res = await app.inject({ method: 'GET', url: `/api/nomenclature/city/index/0/10?county_id=${value}` });
      expect(fieldErrors(res).county_id).toBeDefined();
    }
  });

  it('CAEN list and icredit offices: offset 1e308 / 2^63 and county_id 2^31 are field errors', async () => {
    for (const offset of ['1e308', '9223372036854775808', '2147483648']) {
      const res = await app.inject({ method: 'GET', url: `/api/nomenclature/code/index/${offset}/10` });
      expect(fieldErrors(res).offset).toEqual(['Valoarea poate fi cel mult 2147483647.']);
    }
    const offices = await app.inject({ method: 'GET', url: `/api/nomenclature/icredit-office/index?county_id=${TOO_BIG}` });
    expect(fieldErrors(offices).county_id).toBeDefined();
  });

  it('update-user-info, mailing-address, update/form-data, delete diploma document: 2^31 ids are field errors', async () => {
    const address = { street: 'Lungă', number: '10' };
    const info = await app.inject({
      method: 'POST',
      url: '/api/registration/update-user-info',
      headers: auth(alice.token),
      payload: { first_name: 'Ana', last_name: 'Pop', county_id: TOO_BIG, city_id: TOO_BIG, ...address },
    });
    expect(Object.keys(fieldErrors(info))).toEqual(expect.arrayContaining(['county_id', 'city_id']));
    const mailing = await app.inject({
      method: 'POST',
      url: '/api/mailing-address',
      headers: auth(alice.token),
      payload: { contact_first_name: 'Ana', contact_last_name: 'Pop', county_id: TOO_BIG, city_id: TOO_BIG, ...address },
    });
    expect(Object.keys(fieldErrors(mailing))).toEqual(expect.arrayContaining(['county_id', 'city_id']));
    const codes = await app.inject({ method: 'POST', url: '/api/registration/update/form-data', headers: auth(alice.token), payload: { codes: [TOO_BIG] } });
    expect(fieldErrors(codes)['codes.0']).toEqual(['Valoarea poate fi cel mult 2147483647.']);
    const file = await app.inject({ method: 'POST', url: '/api/registration/delete/diploma-documents', headers: auth(alice.token), payload: { file_id: TOO_BIG } });
    expect(fieldErrors(file).file_id).toEqual(['Valoarea poate fi cel mult 2147483647.']);
  });

  it('update/form-data at the overview step: codes past 2^31, in either form, are a field error and nothing changes', async () => {
    const user = await registerUser(app, { type: 2 });
    await placeAtStep(app, user, 'requesting-company-step-7', { activity: 'design-grafic' });
    const before = await app.inject({ method: 'GET', url: '/api/registration/open', headers: auth(user.token) });
    const list = await app.inject({ method: 'POST', url: '/api/registration/update/form-data', headers: auth(user.token), payload: { codes: [TOO_BIG] } });
    expect(fieldErrors(list)['codes.0']).toEqual(['Valoarea poate fi cel mult 2147483647.']);
    const one = await app.inject({ method: 'POST', url: '/api/registration/update/form-data', headers: auth(user.token), payload: { field: 'codes', value: [TOO_BIG] } });
    expect(one.statusCode).toBe(422);
    expect(Object.keys(one.json().payload)).toEqual(['value']);
    const after = await app.inject({ method: 'GET', url: '/api/registration/open', headers: auth(user.token) });
    expect(after.json().payload.form_data).toEqual(before.json().payload.form_data);
  });

  it('step schemas: activity_id, marital_status_id and icredit_office_id past 2^31 are field errors', async () => {
    const cases: [string, string, Record<string, unknown>, string][] = [
      ['requesting-company-step-2', '/api/registration/collect/company', { activity_id: TOO_BIG }, 'activity_id'],
      ['requesting-company-step-4', '/api/registration/collect/civil-status', { is_married: true, marital_status_id: TOO_BIG }, 'marital_status_id'],
    ];
    for (const [step, url, body, field] of cases) {
      const user = await registerUser(app, { type: 2 });
      await placeAtStep(app, user, step);
      const res = await app.inject({ method: 'POST', url, headers: auth(user.token), payload: { current_step_identifier: step, ...body } });
      expect(fieldErrors(res)[field]).toBeDefined();
    }
  });
});

describe('NUL and other control characters', () => {
  it('unsubscribe: a NUL in frontend_id is a field error (no token needed)', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/unsubscribe', payload: { frontend_id: 'a\u0000b' } });
    expect(fieldErrors(res)).toEqual({ frontend_id: [BAD_TEXT] });
  });

  it('search_term with a NUL on the city and CAEN lists is a field error', async () => {
    const city = await app.inject({ method: 'GET', url: '/api/nomenclature/city/index/0/10?county_id=1&search_term=ab%00cd' });
    expect(fieldErrors(city)).toEqual({ search_term: [BAD_TEXT] });
    const caen = await app.inject({ method: 'GET', url: '/api/nomenclature/code/index/0/10?search_term=ab%00cd' });
    expect(fieldErrors(caen)).toEqual({ search_term: [BAD_TEXT] });
  });

  it('update-user-info: control characters in a text field are a field error and nothing is saved; diacritics pass', async () => {
    const before = await app.inject({ method: 'GET', url: '/api/registration/open', headers: auth(alice.token) });
    const res = await app.inject({
      method: 'POST',
      url: '/api/registration/update-user-info',
      headers: auth(alice.token),
      payload: { first_name: 'Ana\u0000', last_name: 'Pop\u0007', county_id: 1, city_id: 1, street: 'Lungă\u001b', number: '10' },
    });
    expect(fieldErrors(res)).toEqual({ first_name: [BAD_TEXT], last_name: [BAD_TEXT], street: [BAD_TEXT] });
    const after = await app.inject({ method: 'GET', url: '/api/registration/open', headers: auth(alice.token) });
    expect(after.json().payload.profile).toEqual(before.json().payload.profile);
  });

  it('text with Romanian diacritics, tabs and newlines is still accepted by the check', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/unsubscribe', payload: { frontend_id: 'Șoseaua Ștefan\tcel Mare\nnr. 1' } });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('Linkul de dezabonare nu este valid.');
  });

  it('mark-as-lost, partner price, stripe redirect and identity sessions: a NUL is a field error', async () => {
    const cases: [string, string, Record<string, unknown>, string][] = [
      ['POST', '/api/stripe/redirect', { selected_stripe_id: 'a\u0000b' }, 'selected_stripe_id'],
      ['PATCH', '/api/veriff/submit-session', { session_id: 'a\u0000b' }, 'session_id'],
    ];
    for (const [method, url, payload, field] of cases) {
      const res = await app.inject({ method: method as 'POST', url, headers: auth(alice.token), payload });
      expect(fieldErrors(res)[field]).toEqual([BAD_TEXT]);
    }
  });

  it('URL params with a NUL: the checkout and the operator dossier answer 404 or 422, never 5xx', async () => {
    const checkout = await app.inject({ method: 'GET', url: '/api/checkout/a%00b', headers: auth(alice.token) });
    expect([404, 422]).toContain(checkout.statusCode);
    expect(checkout.json().message).toEqual(expect.any(String));
    const dossier = await app.inject({ method: 'GET', url: '/api/ops/dossiers/a%00b', headers: ops });
    expect([404, 422]).toContain(dossier.statusCode);
    expect(dossier.json().message).toEqual(expect.any(String));
  });

  it('a lone surrogate (not UTF-8 encodable) is refused like a control character', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/unsubscribe',
      headers: { 'content-type': 'application/json' },
      payload: '{"frontend_id":"a\\ud800b"}',
    });
    expect(fieldErrors(res)).toEqual({ frontend_id: [BAD_TEXT] });
  });
});

describe('malformed multipart', () => {
  it('multipart without a boundary answers 400 with the envelope', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/veriff/upload-image',
      headers: { ...auth(alice.token), 'content-type': 'multipart/form-data' },
      payload: 'session_id=1',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'Formularul trimis nu poate fi citit.', payload: null });
  });

  it('a truncated multipart body answers 400 with the envelope', async () => {
    const boundary = '----frontiera';
    const body = [`--${boundary}`, 'Content-Disposition: form-data; name="session_id"', '', 'abc', `--${boundary}`, 'Content-Disposition: form-data; name="media_file"; filename="a.jpg"', 'Content-Type: image/jpeg', '', 'jumătate'].join('\r\n');
    for (const url of ['/api/veriff/upload-image', '/api/registration/collect/diploma-documents']) {
      const res = await app.inject({
        method: 'POST',
        url,
        headers: { ...auth(alice.token), 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload: body,
      });
      expect(res.statusCode, url).toBe(400);
      expect(res.json()).toEqual({ message: 'Formularul trimis nu poate fi citit.', payload: null });
    }
    const ops = await app.inject({
      method: 'POST',
      url: '/api/ops/dossiers/1/documents',
      headers: { authorization: `Bearer ${OPS_TOKEN}`, 'x-ops-actor': 'Ana Operator', 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: body,
    });
    expect(ops.statusCode).toBe(400);
  });

  it('a multipart text field with a NUL is a field error', async () => {
    const boundary = '----frontiera';
    const body = [`--${boundary}`, 'Content-Disposition: form-data; name="session_id"', '', 'a\u0000b', `--${boundary}`, 'Content-Disposition: form-data; name="context"', '', 'document-front', `--${boundary}`, 'Content-Disposition: form-data; name="media_file"; filename="a.jpg"', 'Content-Type: image/jpeg', '', 'jpeg', `--${boundary}--`, ''].join('\r\n');
    const res = await app.inject({
      method: 'POST',
      url: '/api/veriff/upload-image',
      headers: { ...auth(alice.token), 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: body,
    });
    expect(fieldErrors(res).session_id).toEqual([BAD_TEXT]);
  });

  it('a file name with control characters is not refused: the file is read, the name cleaned', async () => {
    const boundary = '----frontiera';
    const body = [`--${boundary}`, 'Content-Disposition: form-data; name="session_id"', '', 'nu-exista', `--${boundary}`, 'Content-Disposition: form-data; name="context"', '', 'document-front', `--${boundary}`, 'Content-Disposition: form-data; name="media_file"; filename="poz\u0001a.jpg"', 'Content-Type: image/jpeg', '', 'jpeg', `--${boundary}--`, ''].join('\r\n');
    const res = await app.inject({
      method: 'POST',
      url: '/api/veriff/upload-image',
      headers: { ...auth(alice.token), 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: body,
    });
    expect(res.statusCode).toBeLessThan(500);
    expect(JSON.stringify(res.json().payload ?? {})).not.toContain(BAD_TEXT);
  });
});

/** A real HTTP request over a socket (inject hides what the socket does). */
function post(port: number, path: string, headers: Record<string, string>, chunks: Buffer[]): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, method: 'POST', headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

describe('bodies over the limit, over a real socket', () => {
  let server: FastifyInstance;
  let port: number;

  beforeAll(async () => {
    server = await testApp({ opsToken: OPS_TOKEN, idvMaxUploadBytes: 64 * 1024 });
    await server.listen({ host: '127.0.0.1', port: 0 });
    port = (server.server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await server.close();
  });

  it('a JSON body over 1 MB answers 413 with the envelope (the answer arrives)', async () => {
    const big = Buffer.from(JSON.stringify({ frontend_id: 'x'.repeat(3 * 1024 * 1024) }));
    const chunks = Array.from({ length: Math.ceil(big.length / 65536) }, (_, i) => big.subarray(i * 65536, (i + 1) * 65536));
    const res = await post(port, '/api/unsubscribe', { 'content-type': 'application/json', 'content-length': String(big.length) }, chunks);
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toEqual({ message: 'Datele trimise sunt prea mari.', payload: null });
    // The server still answers on a new connection.
    const health = await fetch(`http://127.0.0.1:${port}/api/health`);
    expect(health.status).toBe(200);
  });

  it('a multipart file over the limit answers with the envelope (the answer arrives)', async () => {
    const boundary = '----frontiera';
    const head = Buffer.from(
      [`--${boundary}`, 'Content-Disposition: form-data; name="session_id"', '', 'abc', `--${boundary}`, 'Content-Disposition: form-data; name="media_file"; filename="a.jpg"', 'Content-Type: image/jpeg', '', ''].join('\r\n'),
    );
    const data = Buffer.alloc(2 * 1024 * 1024, 0xff);
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const all = Buffer.concat([head, data, tail]);
    const chunks = Array.from({ length: Math.ceil(all.length / 65536) }, (_, i) => all.subarray(i * 65536, (i + 1) * 65536));
    const res = await post(
      port,
      '/api/veriff/upload-image',
      { ...auth(alice.token), 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(all.length) },
      chunks,
    );
    expect([413, 422]).toContain(res.status);
    const body = JSON.parse(res.body) as { message: string; payload: unknown };
    expect(body.message).toEqual(expect.any(String));
  });

  it('inject: a JSON body over 1 MB answers 413 with the Romanian envelope', async () => {
    const res = await server.inject({ method: 'POST', url: '/api/unsubscribe', payload: { frontend_id: 'x'.repeat(2 * 1024 * 1024) } });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ message: 'Datele trimise sunt prea mari.', payload: null });
  });
});
