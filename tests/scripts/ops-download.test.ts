import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main, parseCommand, UsageError, type Fetch } from '../../scripts/ops';

/** `npm run ops -- download <dossier> [--out folder]`: the PDFs the applicant signed, saved by the operator. */

const dossier = {
  id: 12,
  email: 'ion@exemplu.ro',
  name: 'Popescu Ion',
  registration_type: 2,
  step: 'requesting-company-step-9',
  status: 'submitted',
  paid: true,
  created_at: '2026-11-20T09:30:00.000Z',
  timeline_items: 0,
  timeline: [],
  trade_register_documents: [],
  signed_documents: [
    { id: 50, kind: 'legal_assistance_contract', name: 'contract-asistenta-juridica.pdf', size: 9 },
    { id: 51, kind: 'power_of_attorney_request', name: 'cerere-imputernicire.pdf', size: 9 },
  ],
};

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ops-download-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A stand-in server: the dossier as JSON, each document's bytes (`%PDF-<id>`), or what `override` answers. */
function fakeFetch(calls: string[], override?: (url: string) => Response | null): Fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const url = String(input);
    calls.push(`${init?.method ?? 'GET'} ${url} ${(init?.headers as Record<string, string>)?.authorization ?? ''}`);
    const special = override?.(url);
    if (special) return special;
    const file = /\/signed-documents\/(\d+)$/.exec(url);
    if (file) return new Response(`%PDF-${file[1]}`, { status: 200, headers: { 'content-type': 'application/pdf' } });
    return new Response(JSON.stringify({ message: '', payload: dossier }), { status: 200, headers: { 'content-type': 'application/json' } });
  }) as Fetch;
}

async function run(argv: string[], fetchImpl: Fetch) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { OPS_URL: 'http://ops.test', OPS_TOKEN: 'sesam-0123456789abcdef', OPS_ACTOR: 'Ana Operator' }, { out: (t) => out.push(t), err: (t) => err.push(t), fetch: fetchImpl });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('ops download', () => {
  it('parses the dossier and the folder (default: here)', () => {
    expect(parseCommand(['download', 'ion@exemplu.ro'])).toEqual({ name: 'download', dossier: 'ion@exemplu.ro', out: '.' });
    expect(parseCommand(['download', '12', '--out', 'dosar-12'])).toEqual({ name: 'download', dossier: '12', out: 'dosar-12' });
    expect(() => parseCommand(['download'])).toThrow(UsageError);
    expect(() => parseCommand(['download', '12', 'extra'])).toThrow(UsageError);
  });

  it('saves each signed PDF under its name into the folder (made if missing), with the bearer token', async () => {
    const calls: string[] = [];
    const out = path.join(dir, 'dosar-12');
    const result = await run(['download', 'ion@exemplu.ro', '--out', out], fakeFetch(calls));
    expect(result.code, result.err).toBe(0);
    expect(calls).toEqual([
      'GET http://ops.test/api/ops/dossiers/ion%40exemplu.ro Bearer sesam-0123456789abcdef',
      'GET http://ops.test/api/ops/dossiers/12/signed-documents/50 Bearer sesam-0123456789abcdef',
      'GET http://ops.test/api/ops/dossiers/12/signed-documents/51 Bearer sesam-0123456789abcdef',
    ]);
    expect(fs.readFileSync(path.join(out, 'contract-asistenta-juridica.pdf'), 'latin1')).toBe('%PDF-50');
    expect(fs.readFileSync(path.join(out, 'cerere-imputernicire.pdf'), 'latin1')).toBe('%PDF-51');
    expect(result.out).toContain('Saved 2 signed document(s) of dossier 12 (ion@exemplu.ro):');
    expect(result.out).toContain(`${path.join(out, 'contract-asistenta-juridica.pdf')}  (7 bytes)`);
  });

  it('never writes over an existing file (exit 1, the file kept)', async () => {
    fs.writeFileSync(path.join(dir, 'contract-asistenta-juridica.pdf'), 'another dossier');
    const result = await run(['download', '12', '--out', dir], fakeFetch([]));
    expect(result.code).toBe(1);
    expect(result.err).toContain('contract-asistenta-juridica.pdf already exists: choose another folder with --out');
    expect(fs.readFileSync(path.join(dir, 'contract-asistenta-juridica.pdf'), 'utf8')).toBe('another dossier');
  });

  it('a dossier not sent yet, or a document the server does not have: exit 1 with the reason', async () => {
    const none = (url: string) => (url.endsWith('/dossiers/7') ? new Response(JSON.stringify({ message: '', payload: { ...dossier, id: 7, signed_documents: [] } }), { status: 200 }) : null);
    const empty = await run(['download', '7', '--out', dir], fakeFetch([], none));
    expect(empty.code).toBe(1);
    expect(empty.err).toContain('dossier 7 (ion@exemplu.ro) has no signed documents yet');

    const missing = (url: string) => (url.includes('/signed-documents/') ? new Response(JSON.stringify({ message: 'Dosarul nu are acest document semnat.', payload: null }), { status: 404 }) : null);
    const gone = await run(['download', '12', '--out', dir], fakeFetch([], missing));
    expect(gone.code).toBe(1);
    expect(gone.err).toContain('the server answered 404: Dosarul nu are acest document semnat.');
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});
