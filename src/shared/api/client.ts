import type { Envelope, FieldErrors } from '@/core/api-types';
import { session } from '@/shared/session';
import { storedLanguage } from '@/shared/language';

/**
 * The one fetch client of the app (DESIGN.md "API conventions"): base `/api`, JSON, the bearer
 * token when signed in, always `X-Requested-With: XMLHttpRequest` and `Accept-Language`; unwraps `{ payload, message }`.
 */
export const API_BASE = '/api';

/** A failed call. `status` 0 means the server could not be reached. */
export class ApiError extends Error {
  readonly status: number;
  /** The 422 field errors (`payload` of a validation failure), `{}` otherwise. */
  readonly fieldErrors: FieldErrors;
  readonly payload: unknown;

  constructor(status: number, message: string, payload: unknown = null) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.payload = payload;
    this.fieldErrors = status === 422 ? toFieldErrors(payload) : {};
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

function toFieldErrors(payload: unknown): FieldErrors {
  if (!payload || typeof payload !== 'object' || Array.isArray(payload)) return {};
  const out: FieldErrors = {};
  for (const [field, messages] of Object.entries(payload as Record<string, unknown>)) {
    if (Array.isArray(messages)) {
      const list = messages.filter((m): m is string => typeof m === 'string');
      if (list.length) out[field] = list;
    } else if (typeof messages === 'string') {
      out[field] = [messages];
    }
  }
  return out;
}

type UnauthorizedHandler = () => void;
let onUnauthorized: UnauthorizedHandler | null = null;
/** A 401 came while no handler was set (a page's first call can answer before the app root's effect runs). */
let missedUnauthorized = false;

function unauthorized(): void {
  if (onUnauthorized) onUnauthorized();
  else missedUnauthorized = true;
}

/**
 * What happens when an authenticated call answers 401 (the app clears the session and goes to /login).
 * A 401 answered before any handler was set is handed to the next handler set, so it is never lost.
 */
export function setUnauthorizedHandler(handler: UnauthorizedHandler | null): void {
  onUnauthorized = handler;
  if (handler && missedUnauthorized) {
    missedUnauthorized = false;
    handler();
  }
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  query?: Record<string, string | number | boolean | null | undefined>;
  signal?: AbortSignal;
  /** Do not run the 401 handler (logout itself). */
  ignoreUnauthorized?: boolean;
}

/**
 * `/login` → `/api/login`; paths that already start with `/api/` (flow files, the reset link's
 * target) are kept. Only same-origin relative paths: the client never sends the token elsewhere.
 */
export function apiUrl(path: string, query?: RequestOptions['query']): string {
  if (!path.startsWith('/') || path.startsWith('//')) throw new Error(`API path must be a same-origin absolute path: ${path}`);
  const base = path === API_BASE || path.startsWith(`${API_BASE}/`) ? path : `${API_BASE}${path}`;
  if (!query) return base;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const qs = params.toString();
  if (!qs) return base;
  return `${base}${base.includes('?') ? '&' : '?'}${qs}`;
}

/** Sends a request and resolves to the whole envelope; rejects with an ApiError. */
export async function request<T>(path: string, options: RequestOptions = {}): Promise<Envelope<T>> {
  const method = options.method ?? (options.body === undefined ? 'GET' : 'POST');
  const headers: Record<string, string> = { Accept: 'application/json', ...authHeaders() };
  const token = session.token();
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) {
    body = options.body;
  } else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }

  return receive<T>(fetch(apiUrl(path, options.query), { method, headers, body, signal: options.signal, credentials: 'same-origin' }), token, options);
}

/**
 * Reads an answer as every call does: the envelope, an ApiError, the 401 handler (for a call sent with
 * `token`). Also one asked for ahead (src/shared/api/ahead.ts), before the app had loaded or the page needed it.
 */
export async function receive<T>(sent: Promise<Response>, token: string | null, options: Pick<RequestOptions, 'ignoreUnauthorized'> = {}): Promise<Envelope<T>> {
  let response: Response;
  try {
    response = await sent;
  } catch (error) {
    if ((error as Error)?.name === 'AbortError') throw error;
    throw new ApiError(0, '');
  }

  let json: Partial<Envelope<T>> | null = null;
  const text = await response.text();
  if (text) {
    try {
      json = JSON.parse(text) as Partial<Envelope<T>>;
    } catch {
      json = null;
    }
  }
  const message = typeof json?.message === 'string' ? json.message : '';

  if (!response.ok) {
    if (response.status === 401 && token && !options.ignoreUnauthorized) unauthorized();
    throw new ApiError(response.status, message, json?.payload ?? null);
  }
  return { payload: (json?.payload ?? null) as T, message };
}

function authHeaders(): Record<string, string> {
  // The applicant's language (src/shared/language.ts), always sent: the server words its messages in it.
  const headers: Record<string, string> = { 'X-Requested-With': 'XMLHttpRequest', 'Accept-Language': storedLanguage() };
  const token = session.token();
  if (token) headers.Authorization = `Bearer ${token}`;
  return headers;
}

/**
 * Posts a multipart form with upload progress (fetch cannot report it: XMLHttpRequest can), so a
 * phone on a slow network shows how far its photo is. Resolves to the envelope's payload.
 */
export function upload<T>(path: string, form: FormData, onProgress?: (fraction: number) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', apiUrl(path));
    xhr.setRequestHeader('Accept', 'application/json');
    for (const [name, value] of Object.entries(authHeaders())) xhr.setRequestHeader(name, value);
    if (onProgress) {
      xhr.upload.onprogress = (event) => {
        if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
      };
    }
    xhr.onerror = () => reject(new ApiError(0, ''));
    xhr.onload = () => {
      let json: Partial<Envelope<T>> | null = null;
      try {
        json = xhr.responseText ? (JSON.parse(xhr.responseText) as Partial<Envelope<T>>) : null;
      } catch {
        json = null;
      }
      const message = typeof json?.message === 'string' ? json.message : '';
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress?.(1);
        resolve((json?.payload ?? null) as T);
        return;
      }
      if (xhr.status === 401 && session.token()) unauthorized();
      reject(new ApiError(xhr.status, message, json?.payload ?? null));
    };
    xhr.send(form);
  });
}

/** A file the API served: its bytes and the name its `Content-Disposition` gives (null without one). */
export interface FetchedFile {
  blob: Blob;
  name: string | null;
}

/** `attachment; filename="date-ghiseu-2026-11-25.zip"` → the file name. */
function dispositionName(header: string | null): string | null {
  const match = header ? /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(header) : null;
  if (!match) return null;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return match[1];
  }
}

/**
 * Fetches an owner-only file (an uploaded photo, an export) with the bearer token. A refusal rejects
 * with an ApiError carrying the server's `message` (a 429's "try again later") when it sent one.
 */
export async function fetchFile(path: string): Promise<FetchedFile> {
  const token = session.token();
  let response: Response;
  try {
    response = await fetch(apiUrl(path), { headers: authHeaders(), credentials: 'same-origin' });
  } catch {
    throw new ApiError(0, '');
  }
  // An error answers the JSON envelope: read as every call is (message, 401 handler).
  if (!response.ok) await receive(Promise.resolve(response), token);
  return { blob: await response.blob(), name: dispositionName(response.headers.get('Content-Disposition')) };
}

/** Fetches an owner-only file (an uploaded photo) with the bearer token, as a Blob. */
export async function fetchBlob(path: string): Promise<Blob> {
  return (await fetchFile(path)).blob;
}

/** The client the pages and the engine use (satisfies src/engine's `EngineApi`). */
export const api = {
  request,
  async get<T>(path: string, query?: RequestOptions['query']): Promise<T> {
    return (await request<T>(path, { method: 'GET', query })).payload;
  },
  async post<T>(path: string, body: unknown = {}): Promise<T> {
    return (await request<T>(path, { method: 'POST', body })).payload;
  },
  async patch<T>(path: string, body: unknown = {}): Promise<T> {
    return (await request<T>(path, { method: 'PATCH', body })).payload;
  },
  async delete<T>(path: string, body?: unknown): Promise<T> {
    return (await request<T>(path, { method: 'DELETE', body })).payload;
  },
  /** The payload of an answer already asked for (`receive`), sent with the signed-in user's token. */
  async receive<T>(sent: Promise<Response>): Promise<T> {
    return (await receive<T>(sent, session.token())).payload;
  },
  /** A multipart POST with upload progress (the step submits that carry files). */
  postForm<T>(path: string, form: FormData, onProgress?: (fraction: number) => void): Promise<T> {
    return upload<T>(path, form, onProgress);
  },
  upload,
  fetchBlob,
  fetchFile,
};
