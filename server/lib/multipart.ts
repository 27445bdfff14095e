import type { FastifyRequest, preValidationAsyncHookHandler } from 'fastify';
import type {} from '@fastify/multipart';
import { FieldValidationError } from './http-errors';

/** A file of a multipart body, read into memory (its size is bounded by the route's limit). */
export interface UploadedFile {
  data: Buffer;
  /** The name the browser gave; for display only: the type is decided by content. */
  filename: string;
  /** The declared type; never trusted. */
  mimetype: string;
}

export interface MultipartBodyOptions {
  /** Names of the file fields this route takes; files under other names are read and dropped. */
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
  return async function (request: FastifyRequest) {
    if (!request.isMultipart()) {
      const body = request.body;
      if (body && typeof body === 'object') {
        for (const field of options.fileFields) delete (body as Record<string, unknown>)[field];
      }
      return;
    }
    const body: Record<string, unknown> = {};
    let field = options.fileFields[0];
    try {
      // A file over the limit throws RequestFileTooLargeError (the plugin's throwFileSizeLimit, on by default).
      const parts = request.parts({
        limits: { fileSize: options.maxFileBytes, files: options.maxFiles, fields: 20, fieldSize: 10_000, parts: 40 },
      });
      for await (const part of parts) {
        if (part.type === 'file') {
          field = part.fieldname;
          const data = await part.toBuffer();
          if (options.fileFields.includes(part.fieldname)) {
            body[part.fieldname] = { data, filename: part.filename ?? '', mimetype: part.mimetype ?? '' } satisfies UploadedFile;
          }
        } else if (typeof part.value === 'string') {
          body[part.fieldname] = part.value;
        }
      }
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === 'FST_REQ_FILE_TOO_LARGE') throw new FieldValidationError({ [field]: [options.tooLarge] });
      if (code === 'FST_FILES_LIMIT') throw new FieldValidationError({ [options.fileFields[0]]: [options.tooMany] });
      if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') {
        throw new FieldValidationError({ _: ['Formularul trimis are prea multe câmpuri.'] });
      }
      throw error;
    }
    request.body = body;
  };
}

/** True for a file that came through `multipartBody` (a JSON body cannot forge one). */
export function isUploadedFile(value: unknown): value is UploadedFile {
  return Boolean(value) && typeof value === 'object' && Buffer.isBuffer((value as UploadedFile).data);
}
