import { ApiError, apiUrl, type RequestOptions } from '@/shared/api/client';
import type { Envelope } from '@/core/api-types';
import { storedLanguage } from '@/shared/language';
import { staffSession } from './session';

/**
 * The staff pages' fetch client: like src/shared/api/client.ts (`/api`, JSON, the `{ message,
 * payload }` envelope, ApiError with the 422 field errors) but with the staff session's bearer token
 * only. A 401 on a call made with a staff token forgets the staff session; the staff layout then
 * sends the browser to /staff/login (it listens to the session store).
 */

function headers(): Record<string, string> {
  // The server's messages (a toast, a field error) in the page's language, like the applicant's client.
  const h: Record<string, string> = { Accept: 'application/json', 'X-Requested-With': 'XMLHttpRequest', 'Accept-Language': storedLanguage() };
  const token = staffSession.token();
  if (token) h.Authorization = `Bearer ${token}`;
  return h;
}

function unauthorized(status: number, hadToken: boolean) {
  if (status === 401 && hadToken) staffSession.clear();
}

async function envelope<T>(response: Response): Promise<Partial<Envelope<T>> | null> {
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text) as Partial<Envelope<T>>;
  } catch {
    return null;
  }
}

export async function staffRequest<T>(path: string, options: Omit<RequestOptions, 'ignoreUnauthorized'> = {}): Promise<Envelope<T>> {
  const method = options.method ?? (options.body === undefined ? 'GET' : 'POST');
  const h = headers();
  const hadToken = Boolean(h.Authorization);
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) body = options.body;
  else if (options.body !== undefined) {
    h['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  let response: Response;
  try {
    response = await fetch(apiUrl(path, options.query), { method, headers: h, body, signal: options.signal, credentials: 'same-origin' });
  } catch (error) {
    if ((error as Error)?.name === 'AbortError') throw error;
    throw new ApiError(0, '');
  }
  const json = await envelope<T>(response);
  const message = typeof json?.message === 'string' ? json.message : '';
  if (!response.ok) {
    unauthorized(response.status, hadToken);
    throw new ApiError(response.status, message, json?.payload ?? null);
  }
  return { payload: (json?.payload ?? null) as T, message };
}

/** A file the staff member may download (a photo, a document, a CSV), as a Blob. */
export async function staffFetchBlob(path: string, query?: RequestOptions['query']): Promise<Blob> {
  const h = headers();
  let response: Response;
  try {
    response = await fetch(apiUrl(path, query), { headers: h, credentials: 'same-origin' });
  } catch {
    throw new ApiError(0, '');
  }
  if (!response.ok) {
    unauthorized(response.status, Boolean(h.Authorization));
    const json = await envelope<unknown>(response);
    throw new ApiError(response.status, typeof json?.message === 'string' ? json.message : '', json?.payload ?? null);
  }
  return response.blob();
}

export const staffApi = {
  request: staffRequest,
  async get<T>(path: string, query?: RequestOptions['query']): Promise<T> {
    return (await staffRequest<T>(path, { method: 'GET', query })).payload;
  },
  async post<T>(path: string, body: unknown = {}): Promise<T> {
    return (await staffRequest<T>(path, { method: 'POST', body })).payload;
  },
  /** A multipart POST (`FormData`): uploads. */
  async postForm<T>(path: string, form: FormData): Promise<T> {
    return (await staffRequest<T>(path, { method: 'POST', body: form })).payload;
  },
  fetchBlob: staffFetchBlob,
};
