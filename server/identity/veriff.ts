import { createHmac, timingSafeEqual } from 'node:crypto';
import { romanianReason } from './reasons';
import { DB_INT_MAX, DB_INT_MIN } from '../lib/input-limits';
import {
  IdentityProviderError,
  IdentityStatus,
  type IdentityDecision,
  type IdentityMedia,
  type IdentityPerson,
  type IdentityProvider,
} from './types';

export interface VeriffOptions {
  apiKey: string;
  sharedSecret: string;
  /** https://stationapi.veriff.com (no trailing slash) */
  baseUrl: string;
  timeoutMs?: number;
}

/** Hex HMAC-SHA256 with the shared secret: what X-HMAC-SIGNATURE carries. */
export function veriffSignature(payload: string | Buffer, sharedSecret: string): string {
  return createHmac('sha256', sharedSecret).update(payload).digest('hex');
}

/** Compares a received signature with the expected one in constant time. */
export function signatureMatches(received: string | undefined, payload: string | Buffer, sharedSecret: string): boolean {
  if (!received) return false;
  const expected = Buffer.from(veriffSignature(payload, sharedSecret), 'utf8');
  const given = Buffer.from(received.trim().toLowerCase(), 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Veriff's `verification` object of a decision (GET …/decision and the decision webhook). */
export interface VeriffVerification {
  id: string;
  status: string;
  code?: number | null;
  reason?: string | null;
  reasonCode?: number | string | null;
  decisionTime?: string | null;
  vendorData?: string | null;
  person?: {
    firstName?: string | null;
    lastName?: string | null;
    idNumber?: string | null;
    placeOfBirth?: string | null;
    dateOfBirth?: string | null;
    /** With address extraction on: the addresses read from the document, the home address first. */
    addresses?: Array<{ fullAddress?: string | null; parsedAddress?: Record<string, unknown> | null } | null> | null;
  } | null;
}

const REJECTED = new Set(['declined', 'resubmission_requested', 'expired', 'abandoned']);

/** The longest address text kept from a decision (a card's address is far shorter). */
const MAX_ADDRESS_LENGTH = 300;

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() ? value.trim() : null;
}

function integer(value: unknown): number | null {
  const n = typeof value === 'string' ? Number(value) : value;
  // Stored in an integer column: a code past its range is no code.
  return typeof n === 'number' && Number.isInteger(n) && n >= DB_INT_MIN && n <= DB_INT_MAX ? n : null;
}

/**
 * The first `fullAddress` of `person.addresses` (a webhook body is checked only as an object, so
 * any shape may come): one line, without control characters, at most MAX_ADDRESS_LENGTH long.
 */
function documentAddress(addresses: unknown): string | null {
  if (!Array.isArray(addresses)) return null;
  for (const entry of addresses) {
    const full = (entry as { fullAddress?: unknown } | null)?.fullAddress;
    if (typeof full !== 'string') continue;
    // eslint-disable-next-line no-control-regex
    const line = full.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').replace(/\s+/g, ' ').trim();
    if (line) return line.slice(0, MAX_ADDRESS_LENGTH).trim();
  }
  return null;
}

/** Veriff's decision in our terms; null while there is none (no verification yet, or `review`). */
export function decisionFromVeriff(verification: VeriffVerification | null | undefined): IdentityDecision | null {
  if (!verification || typeof verification.status !== 'string') return null;
  const approved = verification.status === 'approved';
  if (!approved && !REJECTED.has(verification.status)) return null;
  const reasonCode = integer(verification.reasonCode);
  const p = verification.person;
  const person: IdentityPerson | null = p
    ? {
        first_name: text(p.firstName),
        last_name: text(p.lastName),
        personal_code: text(p.idNumber),
        place_of_birth: text(p.placeOfBirth),
        date_of_birth: text(p.dateOfBirth),
        address: documentAddress(p.addresses),
      }
    : null;
  const decidedAt = verification.decisionTime ? new Date(verification.decisionTime) : new Date();
  return {
    status: approved ? IdentityStatus.approved : IdentityStatus.rejected,
    providerStatus: verification.status,
    code: integer(verification.code),
    reasonCode,
    reason: approved ? null : romanianReason(reasonCode, verification.status),
    person,
    decidedAt: Number.isNaN(decidedAt.getTime()) ? new Date() : decidedAt,
  };
}

/**
 * Veriff's public API v1 (devdocs.veriff.com/apidocs): every call carries X-AUTH-CLIENT (the API
 * key) and X-HMAC-SIGNATURE, the hex HMAC-SHA256 with the shared secret of the request body for
 * POST and PATCH, of the session id for GET and DELETE.
 */
export class VeriffClient implements IdentityProvider {
  readonly name = 'veriff' as const;

  constructor(private readonly options: VeriffOptions) {}

  private async call(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, init: { body?: unknown; signed?: string }) {
    const payload = init.body === undefined ? undefined : JSON.stringify(init.body);
    const headers: Record<string, string> = {
      'X-AUTH-CLIENT': this.options.apiKey,
      'X-HMAC-SIGNATURE': veriffSignature(payload ?? init.signed ?? '', this.options.sharedSecret),
      Accept: 'application/json',
    };
    if (payload !== undefined) headers['Content-Type'] = 'application/json';
    let response: Response;
    try {
      response = await fetch(`${this.options.baseUrl}${path}`, {
        method,
        headers,
        body: payload,
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 20_000),
      });
    } catch (error) {
      throw new IdentityProviderError(`Veriff ${method} ${path}: ${(error as Error).message}`);
    }
    const raw = await response.text().catch(() => '');
    if (!response.ok) throw new IdentityProviderError(`Veriff ${method} ${path}: HTTP ${response.status} ${raw.slice(0, 300)}`, response.status);
    if (!raw) return null;
    try {
      return JSON.parse(raw) as Record<string, unknown>;
    } catch {
      throw new IdentityProviderError(`Veriff ${method} ${path}: the answer is not JSON`, response.status);
    }
  }

  private static sessionPath(sessionId: string): string {
    return `/v1/sessions/${encodeURIComponent(sessionId)}`;
  }

  async createSession(input: { vendorData: string }): Promise<{ sessionId: string }> {
    const answer = await this.call('POST', '/v1/sessions', { body: { verification: { vendorData: input.vendorData } } });
    const id = (answer?.verification as { id?: unknown } | undefined)?.id;
    if (typeof id !== 'string' || !id) throw new IdentityProviderError('Veriff POST /v1/sessions: no verification.id in the answer');
    return { sessionId: id };
  }

  async uploadMedia(sessionId: string, media: IdentityMedia): Promise<void> {
    await this.call('POST', `${VeriffClient.sessionPath(sessionId)}/media`, {
      body: {
        image: {
          context: media.context,
          content: `data:${media.contentType};base64,${media.data.toString('base64')}`,
          timestamp: new Date().toISOString(),
        },
      },
    });
  }

  async submit(sessionId: string): Promise<void> {
    await this.call('PATCH', VeriffClient.sessionPath(sessionId), { body: { verification: { status: 'submitted' } } });
  }

  async decision(sessionId: string): Promise<IdentityDecision | null> {
    const answer = await this.call('GET', `${VeriffClient.sessionPath(sessionId)}/decision`, { signed: sessionId });
    return decisionFromVeriff(answer?.verification as VeriffVerification | null | undefined);
  }

  async deleteSession(sessionId: string): Promise<void> {
    await this.call('DELETE', VeriffClient.sessionPath(sessionId), { signed: sessionId });
  }
}
