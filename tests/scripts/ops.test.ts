import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OpsError, UsageError, main, parseBoolean, parseCommand, parseDate, settingsFrom } from '../../scripts/ops';
import { todayInRomania } from '@/core/timeline';

describe('parseCommand', () => {
  it.each([[[]], [['help']], [['--help']], [['add', '1', 'rejected', '-h']]])('%j is help', (argv) => {
    expect(parseCommand(argv)).toEqual({ name: 'help' });
  });

  it('list, show, attach, finalize', () => {
    expect(parseCommand(['list'])).toEqual({ name: 'list', search: undefined, limit: undefined });
    expect(parseCommand(['list', '--search', 'popescu', '--limit', '20'])).toEqual({ name: 'list', search: 'popescu', limit: 20 });
    expect(parseCommand(['show', 'ion@exemplu.ro'])).toEqual({ name: 'show', dossier: 'ion@exemplu.ro' });
    expect(parseCommand(['attach', '12', 'a.pdf', 'dir/b.pdf'])).toEqual({ name: 'attach', dossier: '12', files: ['a.pdf', 'dir/b.pdf'] });
    expect(parseCommand(['finalize', '12'])).toEqual({ name: 'finalize', dossier: '12', date: undefined });
    expect(parseCommand(['finalize', '12', '--date', '2026-12-05'])).toEqual({ name: 'finalize', dossier: '12', date: '2026-12-05' });
  });

  it('reject and ask', () => {
    expect(parseCommand(['reject', '12', '--date', '30.11.2026'])).toEqual({ name: 'reject', dossier: '12', date: '2026-11-30' });
    expect(parseCommand(['ask', 'ion@exemplu.ro', '--message', 'Diploma, față și verso.'])).toEqual({ name: 'ask', dossier: 'ion@exemplu.ro', message: 'Diploma, față și verso.' });
    expect(() => parseCommand(['ask', '12'])).toThrow('ask: missing --message');
  });

  it('staff:add: e-mail, password and role', () => {
    expect(parseCommand(['staff:add', '--email', 'ana@exemplu.ro', '--password', 'parola-1', '--role', 'editor'])).toEqual({
      name: 'staff:add',
      email: 'ana@exemplu.ro',
      password: 'parola-1',
      role: 'editor',
    });
  });

  it('add: the type, the date and the fields, booleans parsed (true/false, da/nu, yes/no, 1/0)', () => {
    expect(parseCommand(['add', 'ion@exemplu.ro', 'name_reservation', '--pfa_name', 'POPESCU ION PFA', '--hasNameReservation', 'true'])).toEqual({
      name: 'add',
      dossier: 'ion@exemplu.ro',
      body: { type: 'name_reservation', pfa_name: 'POPESCU ION PFA', hasNameReservation: true },
    });
    expect(
      parseCommand(['add', '7', 'document_review', '--date=2026-11-23', '--isDataComplete', 'nu', '--hasDiploma', 'NO', '--shouldHaveDriverLicense', '1', '--hasDriverLicense', 'da']),
    ).toEqual({
      name: 'add',
      dossier: '7',
      body: { type: 'document_review', date: '2026-11-23', isDataComplete: false, hasDiploma: false, shouldHaveDriverLicense: true, hasDriverLicense: true },
    });
    // Dates stay text (the server checks them); an unreadable boolean is sent as typed for the server to explain.
    expect(parseCommand(['add', '7', 'submitted', '--finalDossierSubmitted', 'poate', '--estimated_date', '2026-12-04'])).toEqual({
      name: 'add',
      dossier: '7',
      body: { type: 'submitted', finalDossierSubmitted: 'poate', estimated_date: '2026-12-04' },
    });
    expect(parseCommand(['add', '7', 'delayed', '--date', 'azi', '--estimated_date', '4.12.2026', '--file_resubmission_date', '30.02.2026'])).toEqual({
      name: 'add',
      dossier: '7',
      body: { type: 'delayed', date: todayInRomania(), estimated_date: '2026-12-04', file_resubmission_date: '30.02.2026' },
    });
    expect(parseCommand(['finalize', '7', '--date', '05.12.2026'])).toEqual({ name: 'finalize', dossier: '7', date: '2026-12-05' });
    expect(parseDate('today', new Date('2026-11-23T22:30:00Z'))).toBe('2026-11-24');
    expect(parseDate('2026-11-23')).toBe('2026-11-23');
    expect(parseBoolean(' Yes ')).toBe(true);
    expect(parseBoolean('0')).toBe(false);
  });

  it.each([
    [['add', '7'], /missing <type>/],
    [['add', '7', 'approved'], /unknown type "approved"/],
    [['add', '7', 'rejected', '--colour', 'red'], /colour/],
    [['add', '7', 'rejected', '--pfa_name'], /pfa_name/],
    [['add', '7', 'rejected', 'extra'], /unexpected argument "extra"/],
    [['attach', '7'], /missing <file>/],
    [['finalize'], /missing <dossier>/],
    [['list', '--limit', 'ten'], /--limit/],
    [['delete', '7'], /unknown command "delete"/],
    [['staff:add', '--email', 'ana@exemplu.ro', '--password', 'parola-1'], /missing --role/],
    [['staff:add', '--email', 'ana@exemplu.ro', '--password', 'parola-1', '--role', 'admin'], /--role must be operator or editor/],
    [['staff:add', 'ana@exemplu.ro'], /unexpected argument/],
  ])('%j is a usage error', (argv, message) => {
    expect(() => parseCommand(argv)).toThrow(UsageError);
    expect(() => parseCommand(argv)).toThrow(message);
  });
});

describe('settingsFrom', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ops-cli-'));
    return () => fs.rmSync(dir, { recursive: true, force: true });
  });

  const actor = { OPS_ACTOR: 'Ana Operator' };

  it('OPS_URL, else localhost:PORT; OPS_TOKEN, else DATA_DIR/ops-token; OPS_ACTOR trimmed', () => {
    expect(settingsFrom({ ...actor, OPS_TOKEN: 't' })).toEqual({ url: 'http://localhost:3000', token: 't', actor: 'Ana Operator' });
    expect(settingsFrom({ ...actor, OPS_TOKEN: 't', PORT: '4000' }).url).toBe('http://localhost:4000');
    expect(settingsFrom({ ...actor, OPS_TOKEN: 't', OPS_URL: 'https://ghiseu.example/' }).url).toBe('https://ghiseu.example');
    expect(settingsFrom({ OPS_ACTOR: '  Ion Ionescu \t', OPS_TOKEN: 't' }).actor).toBe('Ion Ionescu');
    fs.writeFileSync(path.join(dir, 'ops-token'), 'din-fisier-0123456789\n');
    expect(settingsFrom({ ...actor, DATA_DIR: dir }).token).toBe('din-fisier-0123456789');
    expect(settingsFrom({ ...actor, DATA_DIR: dir, OPS_TOKEN: 'env' }).token).toBe('env');
  });

  it('without a token it says where it looked', () => {
    expect(() => settingsFrom({ ...actor, DATA_DIR: dir })).toThrow(OpsError);
    expect(() => settingsFrom({ ...actor, DATA_DIR: dir })).toThrow(path.join(dir, 'ops-token'));
  });

  it.each([[undefined], [''], ['   '], ['x'.repeat(101)], ['Ana\nOperator'], ['Ștefan']])('OPS_ACTOR %j is refused with a clear error', (name) => {
    const env = { OPS_TOKEN: 't', ...(name === undefined ? {} : { OPS_ACTOR: name }) };
    expect(() => settingsFrom(env)).toThrow(OpsError);
    expect(() => settingsFrom(env)).toThrow('OPS_ACTOR');
  });
});

interface Recorded {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

describe('HTTP calls (a stand-in server)', () => {
  let server: http.Server;
  let url: string;
  const recorded: Recorded[] = [];
  let answer: { status: number; body: unknown } = { status: 200, body: {} };
  const dossier = {
    id: 12,
    email: 'ion@exemplu.ro',
    name: 'Popescu Ion',
    registration_type: 2,
    step: 'requesting-company-step-9',
    status: 'in_progress',
    paid: true,
    created_at: '2026-11-20T09:30:00.000Z',
    timeline_items: 1,
    timeline: [{ id: 3, type: 'name_reservation', date: '2026-11-23', hasNameReservation: true, pfa_name: 'POPESCU ION PFA' }],
    trade_register_documents: [{ id: 40, name: 'certificat.pdf' }],
  };

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        recorded.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks) });
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(answer.body));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    recorded.length = 0;
  });

  async function run(argv: string[], env: NodeJS.ProcessEnv = {}) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await main(argv, { OPS_URL: url, OPS_TOKEN: 'sesam-0123456789abcdef', OPS_ACTOR: 'Ana Operator', ...env }, { out: (t) => out.push(t), err: (t) => err.push(t) });
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  it('add posts the item as JSON with the bearer token and prints the dossier', async () => {
    answer = { status: 201, body: { message: 'ok', payload: { item: dossier.timeline[0], dossier } } };
    const result = await run(['add', 'ion@exemplu.ro', 'name_reservation', '--pfa_name', 'POPESCU ION PFA', '--hasNameReservation', 'true']);
    expect(result.code).toBe(0);
    expect(recorded).toHaveLength(1);
    expect(recorded[0].method).toBe('POST');
    expect(recorded[0].url).toBe('/api/ops/dossiers/ion%40exemplu.ro/timeline');
    expect(recorded[0].headers.authorization).toBe('Bearer sesam-0123456789abcdef');
    expect(recorded[0].headers['x-ops-actor']).toBe('Ana Operator');
    expect(recorded[0].headers['content-type']).toBe('application/json');
    expect(JSON.parse(recorded[0].body.toString())).toEqual({ type: 'name_reservation', pfa_name: 'POPESCU ION PFA', hasNameReservation: true });
    expect(result.out).toContain('Added name_reservation #3 (2026-11-23) to dossier 12 (ion@exemplu.ro).');
    expect(result.out).toContain('#3  2026-11-23  name_reservation  hasNameReservation=true  pfa_name="POPESCU ION PFA"');
    expect(result.out).toContain('#40  certificat.pdf');
  });

  it('a 422 exits 1 and prints the server\'s field errors', async () => {
    answer = { status: 422, body: { message: 'Datele elementului de status nu sunt valide.', payload: { pfa_name: ['Câmpul este obligatoriu.'], date: ['Data trebuie să fie o zi din calendar, în formatul AAAA-LL-ZZ.'] } } };
    const result = await run(['add', '12', 'name_reservation', '--hasNameReservation', 'da', '--date', '2026-02-30']);
    expect(result.code).toBe(1);
    expect(result.out).toBe('');
    expect(result.err).toContain('the server answered 422: Datele elementului de status nu sunt valide.');
    expect(result.err).toContain('  pfa_name: Câmpul este obligatoriu.');
    expect(result.err).toContain('  date: Data trebuie să fie o zi din calendar, în formatul AAAA-LL-ZZ.');
  });

  it('staff:add posts the account to /api/ops/staff and prints it; a taken e-mail prints the field error', async () => {
    answer = { status: 201, body: { message: 'ok', payload: { id: 5, email: 'ana@exemplu.ro', role: 'operator', created_at: '2026-11-25T20:00:00.000Z' } } };
    const result = await run(['staff:add', '--email', 'ana@exemplu.ro', '--password', 'parola-1', '--role', 'operator']);
    expect(result.code).toBe(0);
    expect(recorded[0].method).toBe('POST');
    expect(recorded[0].url).toBe('/api/ops/staff');
    expect(JSON.parse(recorded[0].body.toString())).toEqual({ email: 'ana@exemplu.ro', password: 'parola-1', role: 'operator' });
    expect(result.out).toBe('Staff account #5 ana@exemplu.ro (operator) created: sign in at /staff/login.');
    answer = { status: 422, body: { message: 'Există deja un cont de personal cu această adresă de e-mail.', payload: { email: ['Există deja un cont de personal cu această adresă de e-mail.'] } } };
    const taken = await run(['staff:add', '--email', 'ana@exemplu.ro', '--password', 'parola-1', '--role', 'operator']);
    expect(taken.code).toBe(1);
    expect(taken.err).toContain('  email: Există deja un cont de personal cu această adresă de e-mail.');
  });

  it('erase: without --yes it asks the server what would go and says nothing changed; with --yes it erases', async () => {
    const plan = { email: 'ion@exemplu.ro', erased: false, goes: ['contul', 'fișierele (3)'], kept: [{ kind: 'payment', count: 1, keep_until: '2036-12-31' }], files_deleted: 0 };
    answer = { status: 200, body: { message: '', payload: plan } };
    const dry = await run(['erase', 'ion@exemplu.ro']);
    expect(dry.code).toBe(0);
    expect(recorded[0].url).toBe('/api/ops/users/erase');
    expect(JSON.parse(recorded[0].body.toString())).toEqual({ email: 'ion@exemplu.ro', erase: false });
    expect(dry.out.split('\n')).toEqual([
      'Erasing ion@exemplu.ro would remove:',
      '    contul',
      '    fișierele (3)',
      '  and keep apart, as the law requires:',
      '    payment records (accounting law) (1) until 2036-12-31',
      'Nothing was changed. Run again with --yes to erase.',
    ]);
    answer = { status: 200, body: { message: 'ok', payload: { ...plan, erased: true, files_deleted: 3 } } };
    const done = await run(['erase', 'ion@exemplu.ro', '--yes']);
    expect(JSON.parse(recorded[1].body.toString())).toEqual({ email: 'ion@exemplu.ro', erase: true });
    expect(done.out).toContain('Account ion@exemplu.ro erased (3 stored file(s) deleted); a confirmation mail is queued.');
    expect((await run(['erase', '12'])).code).toBe(2);
  });

  it('a 401 exits 1 and says to check the token', async () => {
    answer = { status: 401, body: { message: 'Tokenul de operator lipsește sau nu este corect.', payload: null } };
    const result = await run(['list']);
    expect(result.code).toBe(1);
    expect(result.err).toContain('401: Tokenul de operator lipsește sau nu este corect.');
    expect(result.err).toContain('OPS_TOKEN');
  });

  it('attach sends each file as files[n] with its name and bytes', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ops-attach-'));
    try {
      const a = path.join(dir, 'certificat.pdf');
      const b = path.join(dir, 'rezolutie.pdf');
      fs.writeFileSync(a, '%PDF-1.4 certificat');
      fs.writeFileSync(b, '%PDF-1.4 rezolutie');
      answer = { status: 201, body: { message: 'ok', payload: { documents: [], dossier } } };
      const result = await run(['attach', '12', a, b]);
      expect(result.code).toBe(0);
      expect(recorded[0].url).toBe('/api/ops/dossiers/12/documents');
      expect(recorded[0].headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
      const body = recorded[0].body.toString('latin1');
      expect(body).toMatch(/name="files\[0\]"; filename="certificat\.pdf"\r\n[^]*?\r\n\r\n%PDF-1\.4 certificat\r\n/);
      expect(body).toMatch(/name="files\[1\]"; filename="rezolutie\.pdf"\r\n[^]*?\r\n\r\n%PDF-1\.4 rezolutie\r\n/);
      expect(result.out).toContain('Attached 2 file(s) to dossier 12 (ion@exemplu.ro).');

      const missing = await run(['attach', '12', path.join(dir, 'nu-exista.pdf')]);
      expect(missing.code).toBe(1);
      expect(missing.err).toContain('cannot read');
      expect(recorded).toHaveLength(1);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('list prints a table; finalize sends the date', async () => {
    answer = { status: 200, body: { message: '', payload: [dossier] } };
    const list = await run(['list', '--search', 'ion']);
    expect(list.code).toBe(0);
    expect(recorded[0].url).toBe('/api/ops/dossiers?search=ion');
    const [header, row] = list.out.split('\n');
    expect(header.split(/\s{2,}/)).toEqual(['ID', 'E-MAIL', 'NAME', 'TYPE', 'STEP', 'STATUS', 'PAID', 'CREATED', 'ITEMS']);
    expect(row.split(/\s{2,}/)).toEqual(['12', 'ion@exemplu.ro', 'Popescu Ion', '2', 'requesting-company-step-9', 'in_progress', 'yes', '2026-11-20 09:30', '1']);

    answer = { status: 201, body: { message: '', payload: { item: { id: 9, type: 'finalized', date: '2026-12-05' }, dossier: { ...dossier, status: 'finalized' } } } };
    const finalize = await run(['finalize', '12', '--date', '2026-12-05']);
    expect(finalize.code).toBe(0);
    expect(recorded[1]).toMatchObject({ method: 'POST', url: '/api/ops/dossiers/12/finalize' });
    expect(JSON.parse(recorded[1].body.toString())).toEqual({ date: '2026-12-05' });
    expect(finalize.out).toContain('Dossier 12 (ion@exemplu.ro) finalized on 2026-12-05.');
  });

  it('usage errors exit 2 without a call; an unreachable server exits 1', async () => {
    const usage = await run(['add', '12', 'approved']);
    expect(usage.code).toBe(2);
    expect(usage.err).toContain('unknown type "approved"');
    expect(usage.err).toContain('npm run ops -- help');
    expect(recorded).toHaveLength(0);

    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const down = await run(['list'], { OPS_URL: `http://127.0.0.1:${port}` });
    expect(down.code).toBe(1);
    expect(down.err).toContain(`cannot reach the server at http://127.0.0.1:${port}`);
  });

  it('reads send X-Ops-Actor too; without OPS_ACTOR no command calls the server (exit 1, it says what to set)', async () => {
    answer = { status: 200, body: { message: '', payload: dossier } };
    const show = await run(['show', '12'], { OPS_ACTOR: ' Ion Ionescu ' });
    expect(show.code).toBe(0);
    expect(recorded[0]).toMatchObject({ method: 'GET', url: '/api/ops/dossiers/12' });
    expect(recorded[0].headers['x-ops-actor']).toBe('Ion Ionescu');

    answer = { status: 200, body: { message: '', payload: [dossier] } };
    const list = await run(['list', '--search', 'popescu']);
    expect(list.code).toBe(0);
    expect(recorded[1].headers['x-ops-actor']).toBe('Ana Operator');

    for (const name of ['', '  ']) {
      for (const argv of [['list'], ['show', '12'], ['finalize', '12'], ['staff:add', '--email', 'ana@exemplu.ro', '--password', 'parola-1', '--role', 'editor']]) {
        const refused = await run(argv, { OPS_ACTOR: name });
        expect(refused.code).toBe(1);
        expect(refused.err).toContain('set OPS_ACTOR');
      }
    }
    expect(recorded).toHaveLength(2);
  });

  it('a 422 on X-Ops-Actor prints the server\'s message', async () => {
    answer = { status: 422, body: { message: 'Numește operatorul în antetul X-Ops-Actor.', payload: { 'X-Ops-Actor': ['Numește operatorul în antetul X-Ops-Actor.'] } } };
    const result = await run(['list']);
    expect(result.code).toBe(1);
    expect(result.err).toContain('422: Numește operatorul');
    expect(result.err).toContain('  X-Ops-Actor: Numește operatorul');
  });

  it('help lists every command and type', async () => {
    const help = await run(['help']);
    expect(help.code).toBe(0);
    for (const word of ['list', 'show', 'add', 'attach', 'finalize', 'document_review', 'name_reservation', 'submitted', 'delayed', 'rejected', 'finalized', '--isDataComplete*', 'OPS_URL', 'OPS_TOKEN', 'ops-token', 'OPS_ACTOR']) {
      expect(help.out).toContain(word);
    }
  });
});
