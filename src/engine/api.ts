/**
 * What the engine needs from the app's API client, injected by the app so the engine stays
 * independent of how requests are made. `get`/`post` resolve to the envelope's payload and reject
 * with an error carrying the HTTP status, the field errors of a 422 and the payload of a 409.
 */
export interface EngineApi {
  get<T>(url: string): Promise<T>;
  post<T>(url: string, body?: unknown): Promise<T>;
  /** A multipart POST (steps with `submit.encoding: "multipart"`). */
  postForm?<T>(url: string, form: FormData, onProgress?: (fraction: number) => void): Promise<T>;
}

export interface EngineError {
  status: number;
  message: string;
  fieldErrors?: Record<string, string[]>;
  payload?: unknown;
}

export function isEngineError(error: unknown): error is EngineError {
  return typeof error === 'object' && error !== null && 'status' in error && typeof (error as EngineError).status === 'number';
}
