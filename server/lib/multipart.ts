import type { IncomingMessage } from 'node:http';
import type { FastifyReply, FastifyRequest, preValidationAsyncHookHandler } from 'fastify';
import type {} from '@fastify/multipart';
import { FieldValidationError, HttpError } from './http-errors';
import { storableText } from './input-limits';

/** A multipart body that cannot be read: no boundary, cut short, not multipart at all (400, never 500). */
export const UNREADABLE_FORM = 'Formularul trimis nu poate fi citit.';

/** A file of a multipart body, read into memory (its size is bounded by the route's limit). */
export interface UploadedFile {
  data: Buffer;
  /** The name the browser gave; for display only: the type is decided by content. */
  filename: string;
  /** The declared type; never trusted. */
  mimetype: string;
}

export interface MultipartBodyOptions {
  /**
   * Names of the file fields this route takes; files under other names are read and dropped. A
   * name also takes indexed parts `name[n]` (kept under the key `name[n]`) and `name[]` (numbered
   * in order): see `indexedFiles`.
   */
  fileFields: string[];
  maxFileBytes: number;
  maxFiles: number;
  /** Romanian message for a file over `maxFileBytes`. */
  tooLarge: string;
  /** Romanian message for more than `maxFiles` files. */
  tooMany: string;
}

/**
 * A preValidation hook that turns a multipart body into a plain object before the route's JSON
 * Schema runs: text fields as strings, files as `UploadedFile` objects. Limits become 422 field
 * errors. A non-multipart body keeps its fields but can never carry a file.
 */
export function multipartBody(options: MultipartBodyOptions): preValidationAsyncHookHandler {
  return async function (request: FastifyRequest, reply: FastifyReply) {
    if (!request.isMultipart()) {
      const body = request.body;
      if (body && typeof body === 'object') {
        for (const field of Object.keys(body)) {
          if (fileKey(field, options.fileFields, new Map())) delete (body as Record<string, unknown>)[field];
        }
      }
      return;
    }
    const body: Record<string, unknown> = {};
    let field = options.fileFields[0];
    // The base name of the last file field seen (too many files are reported under it).
    let base = options.fileFields[0];
    const counters = new Map<string, number>();
    try {
      // A file over the limit throws RequestFileTooLargeError (the plugin's throwFileSizeLimit, on by default).
      const parts = request.parts({
        limits: { fileSize: options.maxFileBytes, files: options.maxFiles, fields: 20, fieldSize: 10_000, parts: 40 },
      });
      for await (const part of parts) {
        if (part.type === 'file') {
          const key = fileKey(part.fieldname, options.fileFields, counters);
          field = key ? errorKey(key) : part.fieldname;
          if (key) base = key.replace(/\[\d+\]$/, '');
          const data = await part.toBuffer();
          // The browser's file name is for display only: what PostgreSQL cannot store is dropped, not refused.
          if (key) body[key] = { data, filename: storableText(part.filename ?? ''), mimetype: storableText(part.mimetype ?? '') } satisfies UploadedFile;
        } else if (typeof part.value === 'string' && !fileKey(part.fieldname, options.fileFields, new Map())) {
          body[part.fieldname] = part.value;
        }
      }
    } catch (error) {
      // The parser stopped reading mid-body (a limit, a malformed part): read the rest off the socket
      // so the answer reaches the browser instead of a reset connection.
      if (!(await drainRequest(request.raw, options.maxFileBytes * options.maxFiles + DRAIN_SLACK))) reply.header('connection', 'close');
      const code = (error as { code?: string }).code;
      if (code === 'FST_REQ_FILE_TOO_LARGE') throw new FieldValidationError({ [field]: [options.tooLarge] });
      if (code === 'FST_FILES_LIMIT') throw new FieldValidationError({ [base]: [options.tooMany] });
      if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') {
        throw new FieldValidationError({ _: ['Formularul trimis are prea multe câmpuri.'] });
      }
      // Busboy's "Boundary not found", "Unexpected end of form", a malformed part header, …
      throw new HttpError(400, UNREADABLE_FORM);
    }
    request.body = body;
  };
}

/** Beyond a route's own limits, this much more of a refused body is still read and thrown away. */
const DRAIN_SLACK = 10 * 1024 * 1024;

/**
 * Reads what is left of a request body and drops it, up to `maxBytes`. True once the body has
 * ended; false when the sender was still sending after `maxBytes` (the connection is then closed
 * after the answer) or the connection went away.
 */
export function drainRequest(raw: IncomingMessage, maxBytes: number): Promise<boolean> {
  if (raw.readableEnded || raw.destroyed) return Promise.resolve(raw.readableEnded);
  return new Promise((resolve) => {
    let read = 0;
    const done = (ended: boolean) => {
      raw.off('data', onData);
      raw.off('end', onEnd);
      raw.off('close', onClose);
      raw.off('error', onClose);
      if (!ended) raw.pause();
      resolve(ended);
    };
    const onData = (chunk: Buffer) => {
      read += chunk.length;
      if (read > maxBytes) done(false);
    };
    const onEnd = () => done(true);
    const onClose = () => done(raw.readableEnded);
    raw.on('data', onData);
    raw.on('end', onEnd);
    raw.on('close', onClose);
    raw.on('error', onClose);
    raw.resume();
  });
}

/** True for a file that came through `multipartBody` (a JSON body cannot forge one). */
export function isUploadedFile(value: unknown): value is UploadedFile {
  return Boolean(value) && typeof value === 'object' && Buffer.isBuffer((value as UploadedFile).data);
}

/** At most this many files under one indexed name (`files[0]` … `files[99]`). */
const MAX_INDEX = 99;

/**
 * The body key of a file part: `name` as is, `name[n]` as is (n from 0 to 99, without leading
 * zeros), `name[]` numbered in order; null when the route does not take the field.
 */
function fileKey(fieldname: string, fileFields: string[], counters: Map<string, number>): string | null {
  if (fileFields.includes(fieldname)) return fieldname;
  const match = /^(.+)\[(0|[1-9]\d?)?\]$/.exec(fieldname);
  if (!match || !fileFields.includes(match[1])) return null;
  const [, name, index] = match;
  if (index !== undefined) return `${name}[${index}]`;
  const next = counters.get(name) ?? 0;
  counters.set(name, next + 1);
  return next > MAX_INDEX ? null : `${name}[${next}]`;
}

/** `files[3]` -> `files.3` (422 payload keys, DESIGN.md: uploaded files as `files.N`). */
function errorKey(key: string): string {
  return key.replace(/\[(\d+)\]$/, '.$1');
}

/** The files sent as `name[n]`, with their index n (the browser's order), by increasing index. */
export function indexedFiles(files: Record<string, UploadedFile>, name: string): { index: number; file: UploadedFile }[] {
  const out: { index: number; file: UploadedFile }[] = [];
  for (const [key, file] of Object.entries(files)) {
    const match = /^(.+)\[(\d+)\]$/.exec(key);
    if (match && match[1] === name && isUploadedFile(file)) out.push({ index: Number(match[2]), file });
  }
  return out.sort((a, b) => a.index - b.index);
}

/**
 * Every file of the body in the sender's order (`files[n]` by n; a file without an index first),
 * each with the key its 422 errors use (`files.N`, as for the applicant's uploads): the trade
 * register's documents an operator attaches (ops API and console).
 */
export function uploadsInOrder(body: Record<string, unknown>): { key: string; index: number; file: UploadedFile }[] {
  return Object.entries(body)
    .filter((entry): entry is [string, UploadedFile] => isUploadedFile(entry[1]))
    .map(([key, file]) => ({ key: errorKey(key), index: Number(/\[(\d+)\]$/.exec(key)?.[1] ?? 0), file }))
    .sort((a, b) => a.index - b.index);
}
