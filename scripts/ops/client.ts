/**
 * The operator command's HTTP client: the settings (OPS_URL, the ops token, OPS_ACTOR) and the calls
 * to the operator API (`/api/ops/…`, server/routes/ops.ts). Each call names its operation
 * (`operationId` in the OpenAPI document): its answer is typed by the generated API types
 * (src/core/api-schema.d.ts, `npm run api:types`), the contract the server's schemas declare.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Answer, OperationId } from '../../src/core/api-contract';

/** The command was understood but failed: the server said no, or could not be reached (exit code 1). */
export class OpsError extends Error {}

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
export async function download(settings: Settings, fetchImpl: Fetch, route: string): Promise<Buffer> {
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

/**
 * One JSON call of the operator API; resolves to the answer's payload, typed as operation `Op`
 * answers it (`listOpsDossiers`, …), or throws OpsError with the server's message and field errors.
 */
export async function call<Op extends OperationId>(settings: Settings, fetchImpl: Fetch, method: string, route: string, body?: unknown): Promise<Answer<Op>> {
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
  return json.payload as Answer<Op>;
}

/** The operator API's address of a dossier (its id or the applicant's e-mail). */
export const dossierRoute = (dossier: string) => `/ops/dossiers/${encodeURIComponent(dossier)}`;
