import type { FastifyInstance } from 'fastify';
import { auth } from './helpers';

/**
 * Tiny real images (2×2, made with sharp): the server decodes JPEG, PNG and WebP to store them
 * without metadata, so the bytes it keeps are not these bytes.
 */
export const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEklEQVQImWPQiFqgEbWAAUIBAB3mBIl3iaicAAAAAElFTkSuQmCC', 'base64');
export const JPEG = Buffer.from(
  '/9j/2wBDAAYEBQYFBAYGBQYHBwYIChAKCgkJChQODwwQFxQYGBcUFhYaHSUfGhsjHBYWICwgIyYnKSopGR8tMC0oMCUoKSj/2wBDAQcHBwoIChMKChMoGhYaKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCj/wAARCAACAAIDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAb/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFAEBAAAAAAAAAAAAAAAAAAAABv/EABQRAQAAAAAAAAAAAAAAAAAAAAD/2gAMAwEAAhEDEQA/AIMAxHH/2Q==',
  'base64',
);
export const WEBP = Buffer.from('UklGRjgAAABXRUJQVlA4ICwAAADwAQCdASoCAAIAAUAmJaACdLoB+AAF9AAA/vFNr/zNExzH7V//hV8bkLCgAA==', 'base64');
/** Magic bytes only: sharp cannot decode HEIC, the server keeps it (without its Exif items). */
export const HEIC = Buffer.concat([
  Buffer.from([0, 0, 0, 0x18]),
  Buffer.from('ftypheic', 'latin1'),
  Buffer.from([0, 0, 0, 0]),
  Buffer.from('mif1heic', 'latin1'),
  Buffer.alloc(16, 2),
]);
export const TEXT = Buffer.from('Acesta nu este o fotografie, doar un text.\n', 'utf8');

export interface FilePart {
  name?: string;
  filename: string;
  contentType?: string;
  data: Buffer;
}

/** A multipart/form-data body (serialised by undici's FormData, as a browser would send it). */
export async function multipartPayload(fields: Record<string, string>, files: FilePart[] = []) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  for (const file of files) {
    form.append(file.name ?? 'media_file', new Blob([new Uint8Array(file.data)], { type: file.contentType ?? 'application/octet-stream' }), file.filename);
  }
  const response = new Response(form);
  return { payload: Buffer.from(await response.arrayBuffer()), contentType: response.headers.get('content-type')! };
}

export async function upload(app: FastifyInstance, token: string, sessionId: string, context: string, file: FilePart) {
  const { payload, contentType } = await multipartPayload({ session_id: sessionId, context }, [file]);
  return app.inject({ method: 'POST', url: '/api/veriff/upload-image', payload, headers: { ...auth(token), 'content-type': contentType } });
}

export async function createSession(app: FastifyInstance, token: string) {
  const res = await app.inject({ method: 'POST', url: '/api/veriff/create-veriff-session', payload: {}, headers: auth(token) });
  if (res.statusCode !== 200) throw new Error(`create session: ${res.statusCode} ${res.body}`);
  return res.json().payload as { session_id: string; custom_id: string; status: number };
}

/** Creates a session and uploads front, back and selfie (names may contain "reject" to make the simulator decline). */
export async function sessionWithUploads(app: FastifyInstance, token: string, names = ['fata.png', 'spate.jpg', 'selfie.webp']) {
  const session = await createSession(app, token);
  const images = [PNG, JPEG, WEBP];
  const uploads = [];
  for (const [i, context] of ['document-front', 'document-back', 'face'].entries()) {
    const res = await upload(app, token, session.session_id, context, { filename: names[i], data: images[i] });
    if (res.statusCode !== 200) throw new Error(`upload ${context}: ${res.statusCode} ${res.body}`);
    uploads.push(res.json().payload as { context: string; file_id: number; preview_url: string });
  }
  return { session, uploads };
}

export async function submit(app: FastifyInstance, token: string, sessionId: string) {
  return app.inject({ method: 'PATCH', url: '/api/veriff/submit-session', payload: { session_id: sessionId }, headers: auth(token) });
}

export async function verify(app: FastifyInstance, token: string, session: { session_id: string; custom_id: string }) {
  return app.inject({
    method: 'GET',
    url: `/api/veriff/verify-veriff-session?session_id=${encodeURIComponent(session.session_id)}&custom_id=${encodeURIComponent(session.custom_id)}`,
    headers: auth(token),
  });
}

export async function lastSession(app: FastifyInstance, token: string) {
  const res = await app.inject({ method: 'GET', url: '/api/veriff/get-last-session', headers: auth(token) });
  return res.json().payload;
}

/** County and city ids from the seeded nomenclature. */
export async function place(app: FastifyInstance, countyName: string, cityName: string) {
  const counties = (await app.inject({ method: 'GET', url: '/api/nomenclature/county/index/0/42' })).json().payload.data as { id: number; name: string }[];
  const county = counties.find((c) => c.name === countyName);
  if (!county) throw new Error(`no county ${countyName}`);
  const cities = (await app.inject({ method: 'GET', url: `/api/nomenclature/city/index/0/100?county_id=${county.id}` })).json().payload.data as {
    id: number;
    name: string;
  }[];
  const city = cities.find((c) => c.name === cityName);
  if (!city) throw new Error(`no city ${cityName}`);
  return { county_id: county.id, city_id: city.id };
}
