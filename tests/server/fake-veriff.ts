import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeVeriffRequest {
  method: string;
  path: string;
  /** Whether X-AUTH-CLIENT and X-HMAC-SIGNATURE were right. */
  authentic: boolean;
  body: unknown;
}

export interface FakeVeriffSession {
  id: string;
  vendorData: string | null;
  status: 'created' | 'submitted';
  media: { context: string; content: string }[];
  deleted: boolean;
  /** The decision's `verification` object, once set by the test. */
  decision: Record<string, unknown> | null;
}

function sign(payload: string, secret: string): string {
  return createHmac('sha256', secret).update(payload).digest('hex');
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * A local stand-in for Veriff's public API v1 on 127.0.0.1, strict about what Veriff checks:
 * X-AUTH-CLIENT must be the API key and X-HMAC-SIGNATURE the hex HMAC-SHA256 (shared secret) of
 * the raw body for POST/PATCH, of the session id for GET/DELETE; otherwise 401.
 */
export class FakeVeriff {
  readonly requests: FakeVeriffRequest[] = [];
  readonly sessions = new Map<string, FakeVeriffSession>();
  /** The next N calls answer 500 (a provider outage). */
  failNext = 0;
  private server: http.Server | null = null;

  constructor(
    readonly apiKey: string,
    readonly sharedSecret: string,
  ) {}

  get url(): string {
    const address = this.server?.address() as AddressInfo;
    return `http://127.0.0.1:${address.port}`;
  }

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => this.handle(req, Buffer.concat(chunks).toString('utf8'), res));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return this;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** Makes Veriff decide a session (what GET …/decision returns from now on). */
  decide(sessionId: string, verification: Record<string, unknown>): void {
    const session = this.sessions.get(sessionId);
    if (!session) throw new Error(`fake veriff: no session ${sessionId}`);
    session.decision = { id: sessionId, vendorData: session.vendorData, ...verification };
  }

  private handle(req: http.IncomingMessage, raw: string, res: http.ServerResponse): void {
    const method = req.method ?? 'GET';
    const path = (req.url ?? '/').split('?')[0];
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const match = /^\/v1\/sessions(?:\/([^/]+))?(\/media|\/decision)?$/.exec(path);
    const sessionId = match?.[1] ? decodeURIComponent(match[1]) : null;
    const signed = method === 'GET' || method === 'DELETE' ? (sessionId ?? '') : raw;
    const client = req.headers['x-auth-client'];
    const signature = req.headers['x-hmac-signature'];
    const authentic =
      client === this.apiKey && typeof signature === 'string' && same(signature, sign(signed, this.sharedSecret));
    let body: unknown = null;
    try {
      body = raw ? JSON.parse(raw) : null;
    } catch {
      body = raw;
    }
    this.requests.push({ method, path, authentic, body });

    if (!authentic) return send(401, { status: 'fail', code: 1102, message: 'Mandatory X-AUTH-CLIENT or X-HMAC-SIGNATURE missing or wrong' });
    if (this.failNext > 0) {
      this.failNext--;
      return send(500, { status: 'fail', message: 'Internal error' });
    }
    if (!match) return send(404, { status: 'fail', message: 'Not found' });

    if (method === 'POST' && !sessionId) {
      const verification = (body as { verification?: { vendorData?: string } })?.verification;
      const id = randomUUID();
      this.sessions.set(id, { id, vendorData: verification?.vendorData ?? null, status: 'created', media: [], deleted: false, decision: null });
      return send(201, {
        status: 'success',
        verification: { id, url: `https://alchemy.veriff.com/v/${id}`, vendorData: verification?.vendorData ?? null, host: 'https://alchemy.veriff.com', status: 'created', sessionToken: 'token' },
      });
    }
    const session = sessionId ? this.sessions.get(sessionId) : undefined;
    if (!session || session.deleted) return send(404, { status: 'fail', message: 'Session not found' });

    if (method === 'POST' && match[2] === '/media') {
      const image = (body as { image?: { context?: string; content?: string } })?.image;
      if (!image?.context || !image.content?.startsWith('data:image/')) return send(400, { status: 'fail', message: 'Invalid image' });
      if (session.status !== 'created') return send(409, { status: 'fail', message: 'Session already submitted' });
      session.media.push({ context: image.context, content: image.content });
      return send(201, { status: 'success', image: { id: randomUUID(), context: image.context } });
    }
    if (method === 'PATCH' && !match[2]) {
      if ((body as { verification?: { status?: string } })?.verification?.status !== 'submitted') return send(400, { status: 'fail' });
      session.status = 'submitted';
      return send(200, { status: 'success', verification: { id: session.id, status: 'submitted' } });
    }
    if (method === 'GET' && match[2] === '/decision') {
      return send(200, { status: 'success', verification: session.decision });
    }
    if (method === 'DELETE' && !match[2]) {
      session.deleted = true;
      return send(202, { status: 'success', verification: { id: session.id } });
    }
    return send(405, { status: 'fail' });
  }
}

/** Signs a webhook body as Veriff does (hex HMAC-SHA256 of the raw body). */
export function signWebhook(body: string, sharedSecret: string): string {
  return sign(body, sharedSecret);
}
