import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { and, eq } from 'drizzle-orm';
import { requestDocuments, userMeta } from '../../server/db/schema';
import { detectDocumentType } from '../../server/lib/image-type';
import { DOCUMENT_MESSAGES } from '../../server/registration/documents';
import { auth, placeAtStep, registerUser, testApp, type RegisteredUser, requestRowOf } from './helpers';
import { storedFileCount } from './storage-helpers';
import { JPEG, PNG, TEXT, multipartPayload, type FilePart } from './identity-helpers';

let app: FastifyInstance;
beforeAll(async () => {
  app = await testApp();
});
afterAll(() => app.close());

const STEP = 'requesting-company-step-3';
const NEXT = 'requesting-company-step-4';
const COLLECT = '/api/registration/collect/diploma-documents';
const DELETE = '/api/registration/delete/diploma-documents';
const ACK = '/api/user-meta/attorney-acknowledgement';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << >> endobj\n%%EOF\n', 'latin1');
const DOC = Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(64, 0)]);

/** A stored (uncompressed) ZIP with the given entry names, as a Word or other Office file is laid out. */
function zip(names: string[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const name of names) {
    const nameBytes = Buffer.from(name, 'latin1');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(names.length, 8);
  end.writeUInt16LE(names.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}
const DOCX = zip(['[Content_Types].xml', '_rels/.rels', 'word/document.xml']);
const XLSX = zip(['[Content_Types].xml', 'xl/workbook.xml']);

const storedFiles = () => storedFileCount(app);
const diploma = (i: number, data: Buffer, filename = `diploma-${i}.pdf`): FilePart => ({ name: `files[${i}]`, filename, data });
const licence = (i: number, data: Buffer = JPEG, filename = `permis-${i}.jpg`): FilePart => ({ name: `driverLicenseFiles[${i}]`, filename, data });

async function collect(user: RegisteredUser, fields: Record<string, string>, files: FilePart[] = []) {
  const { payload, contentType } = await multipartPayload({ current_step_identifier: STEP, ...fields }, files);
  return app.inject({ method: 'POST', url: COLLECT, payload, headers: { ...auth(user.token), 'content-type': contentType } });
}

const post = (user: RegisteredUser, url: string, payload?: object) =>
  app.inject({ method: 'POST', url, payload, headers: auth(user.token) });

async function atDocuments(options: { partner?: string; activity?: string } = {}): Promise<RegisteredUser> {
  const user = await registerUser(app, { type: 2, partner: options.partner });
  await placeAtStep(app, user, STEP, options.activity ? { activity: options.activity } : {});
  return user;
}

const requestRow = (user: RegisteredUser) => requestRowOf(app, user);

describe('detectDocumentType', () => {
  it('knows images, PDF, DOC and DOCX by content; refuses text and other ZIPs', () => {
    expect(detectDocumentType(PNG)?.contentType).toBe('image/png');
    expect(detectDocumentType(PDF)?.extension).toBe('pdf');
    expect(detectDocumentType(DOC)?.extension).toBe('doc');
    expect(detectDocumentType(DOCX)?.extension).toBe('docx');
    expect(detectDocumentType(XLSX)).toBeNull();
    expect(detectDocumentType(TEXT)).toBeNull();
    expect(detectDocumentType(Buffer.alloc(0))).toBeNull();
  });
});

describe('the documents step of flows/new-pfa.json', () => {
  it('is ready and stores both answers', () => {
    const step = app.flows.byType[2].steps.find((s) => s.id === STEP)!;
    expect(step.status).toBeUndefined();
    expect(step.submit).toMatchObject({ endpoint: COLLECT, encoding: 'multipart' });
    expect(step.submit.store).toEqual({ send_diploma_later: 'send_diploma_later', driver_license_status: 'driver_license_status' });
  });
});

describe(`POST ${COLLECT}`, () => {
  it('stores a PDF and an image as diplomas, moves on, lists them in media (owner only)', async () => {
    const user = await atDocuments();
    const other = await registerUser(app, { type: 2 });
    const before = await storedFiles();
    const res = await collect(user, { send_diploma_later: 'false' }, [diploma(0, PDF, 'diploma.pdf'), diploma(1, JPEG, 'verso.jpg'), diploma(2, DOCX, 'adeverinta.docx')]);
    expect(res.statusCode).toBe(200);
    const payload = res.json().payload;
    expect(payload.step).toBe(NEXT);
    expect(payload.form_data).toMatchObject({ send_diploma_later: false, driver_license_status: null });
    const docs = payload.media.diploma_documents as { id: number; name: string; url: string }[];
    expect(docs.map((d) => d.name)).toEqual(['diploma.pdf', 'verso.jpg', 'adeverinta.docx']);
    expect(docs[0].url).toBe(`/api/files/${docs[0].id}`);
    expect(payload.media.driver_license).toEqual([]);
    expect(await storedFiles()).toBe(before + 3);

    const file = await app.inject({ method: 'GET', url: docs[0].url, headers: auth(user.token) });
    expect(file.headers['content-type']).toBe('application/pdf');
    expect((await app.inject({ method: 'GET', url: docs[0].url, headers: auth(other.token) })).statusCode).toBe(404);
  });

  it('refuses a text file named .pdf with files.N and stores nothing', async () => {
    const user = await atDocuments();
    const before = await storedFiles();
    const res = await collect(user, { send_diploma_later: 'false' }, [diploma(0, PDF), diploma(1, TEXT, 'fals.pdf')]);
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe(DOCUMENT_MESSAGES.rejected);
    expect(res.json().payload).toEqual({ 'files.1': ['Formatul sau dimensiunea documentului încărcat nu sunt acceptate.'] });
    expect(await storedFiles()).toBe(before);
    expect((await requestRow(user)).step).toBe(STEP);
  });

  it('refuses a file over 10 MB under its files.N key', async () => {
    const user = await atDocuments();
    const res = await collect(user, { send_diploma_later: 'false' }, [diploma(0, PDF), diploma(1, Buffer.concat([PDF, Buffer.alloc(10 * 1024 * 1024)]))]);
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().payload)).toEqual(['files.1']);
  });

  it('takes at most 10 files per submit (422 on files, nothing stored)', async () => {
    const user = await atDocuments();
    const before = await storedFiles();
    const res = await collect(user, { send_diploma_later: 'false' }, Array.from({ length: 11 }, (_, i) => diploma(i, PDF)));
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().payload)).toEqual(['files']);
    expect(await storedFiles()).toBe(before);
  });

  it('needs a diploma unless it is sent later; send later stores no diploma', async () => {
    const user = await atDocuments();
    const none = await collect(user, { send_diploma_later: 'false' });
    expect(none.statusCode).toBe(422);
    expect(none.json().payload).toEqual({ files: [DOCUMENT_MESSAGES.diplomaMissing] });

    const before = await storedFiles();
    const later = await collect(user, { send_diploma_later: 'true' }, [diploma(0, PDF)]);
    expect(later.statusCode).toBe(200);
    expect(later.json().payload.form_data).toMatchObject({ send_diploma_later: true, driver_license_status: null });
    expect(later.json().payload.media.diploma_documents).toEqual([]);
    expect(await storedFiles()).toBe(before);
  });

  it('courier: the licence answer is required; 0 and 1 store no licence; 2 needs a file', async () => {
    const user = await atDocuments({ activity: 'curier' });
    const missing = await collect(user, { send_diploma_later: 'true' });
    expect(missing.statusCode).toBe(422);
    expect(Object.keys(missing.json().payload)).toEqual(['driver_license_status']);

    const noFile = await collect(user, { send_diploma_later: 'true', driver_license_status: '2' });
    expect(noFile.statusCode).toBe(422);
    expect(noFile.json().payload).toEqual({ driverLicenseFiles: [DOCUMENT_MESSAGES.licenceMissing] });

    const bad = await collect(user, { send_diploma_later: 'true', driver_license_status: '2' }, [licence(0), licence(1, TEXT)]);
    expect(bad.statusCode).toBe(422);
    expect(bad.json().payload).toEqual({ 'driverLicenseFiles.1': [DOCUMENT_MESSAGES.rejected] });

    const none = await collect(user, { send_diploma_later: 'true', driver_license_status: '0' });
    expect(none.statusCode).toBe(200);
    expect(none.json().payload.form_data.driver_license_status).toBe(0);
  });

  it('taxi: "no licence" is for couriers only; upload now stores the licence; changing away from 2 deletes it', async () => {
    const user = await atDocuments({ activity: 'taxi' });
    const zero = await collect(user, { send_diploma_later: 'true', driver_license_status: '0' });
    expect(zero.statusCode).toBe(422);
    expect(zero.json().payload).toEqual({ driver_license_status: [DOCUMENT_MESSAGES.noLicenceCourierOnly] });

    const upload = await collect(user, { send_diploma_later: 'true', driver_license_status: '2' }, [licence(0), licence(1, PDF, 'atestat-arr.pdf')]);
    expect(upload.statusCode).toBe(200);
    const saved = upload.json().payload.media.driver_license as { id: number; name: string }[];
    expect(saved.map((f) => f.name)).toEqual(['permis-0.jpg', 'atestat-arr.pdf']);
    expect(upload.json().payload.form_data.driver_license_status).toBe(2);

    // Back at the step: keeping 2 without new files is fine (saved ones count).
    await placeAtStep(app, user, STEP);
    const keep = await collect(user, { send_diploma_later: 'true', driver_license_status: '2' });
    expect(keep.statusCode).toBe(200);
    expect(keep.json().payload.media.driver_license).toHaveLength(2);

    await placeAtStep(app, user, STEP);
    const before = await storedFiles();
    const later = await collect(user, { send_diploma_later: 'true', driver_license_status: '1' }, [licence(0)]);
    expect(later.statusCode).toBe(200);
    expect(later.json().payload.media.driver_license).toEqual([]);
    expect(await storedFiles()).toBe(before - 2);
  });

  it('credit partner: driver_license_status is forced to 1 and no licence file is kept', async () => {
    const user = await atDocuments({ partner: 'icredit', activity: 'curier' });
    const res = await collect(user, { send_diploma_later: 'true', driver_license_status: '2' }, [licence(0)]);
    expect(res.statusCode).toBe(200);
    expect(res.json().payload.form_data.driver_license_status).toBe(1);
    expect(res.json().payload.media.driver_license).toEqual([]);
  });

  it('without a licence block the status is null whatever is sent', async () => {
    const user = await atDocuments({ activity: 'psihoterapeut' });
    const res = await collect(user, { send_diploma_later: 'true', driver_license_status: '0' });
    expect(res.statusCode).toBe(200);
    expect(res.json().payload.form_data.driver_license_status).toBeNull();
  });

  it('a stale step identifier answers 409 and stores nothing', async () => {
    const user = await atDocuments();
    const before = await storedFiles();
    const res = await collect(user, { send_diploma_later: 'false', current_step_identifier: 'requesting-company-step-2' }, [diploma(0, PDF)]);
    expect(res.statusCode).toBe(409);
    expect(res.json().payload.step).toBe(STEP);
    expect(await storedFiles()).toBe(before);
  });
});

describe(`POST ${DELETE}`, () => {
  async function withDocuments(activity = 'taxi') {
    const user = await atDocuments({ activity });
    const res = await collect(user, { send_diploma_later: 'false', driver_license_status: '2' }, [diploma(0, PDF), licence(0)]);
    expect(res.statusCode).toBe(200);
    await placeAtStep(app, user, STEP);
    const media = res.json().payload.media as { diploma_documents: { id: number }[]; driver_license: { id: number }[] };
    return { user, diplomaId: media.diploma_documents[0].id, licenceId: media.driver_license[0].id };
  }

  it('deletes a diploma of the request and answers the request', async () => {
    const { user, diplomaId } = await withDocuments();
    const res = await post(user, DELETE, { file_id: diplomaId });
    expect(res.statusCode).toBe(200);
    expect(res.json().payload.media.diploma_documents).toEqual([]);
    expect((await app.inject({ method: 'GET', url: `/api/files/${diplomaId}`, headers: auth(user.token) })).statusCode).toBe(404);
  });

  it('removing the last licence file sets driver_license_status back to 1', async () => {
    const { user, licenceId } = await withDocuments();
    expect((await requestRow(user)).formData.driver_license_status).toBe(2);
    const res = await post(user, DELETE, { file_id: licenceId });
    expect(res.statusCode).toBe(200);
    expect(res.json().payload.form_data.driver_license_status).toBe(1);
    expect(res.json().payload.media.driver_license).toEqual([]);
  });

  it("another user's file answers 404 and stays", async () => {
    const { diplomaId } = await withDocuments();
    const other = await atDocuments();
    const res = await post(other, DELETE, { file_id: diplomaId });
    expect(res.statusCode).toBe(404);
    const rows = await app.db.select().from(requestDocuments).where(eq(requestDocuments.fileId, diplomaId));
    expect(rows).toHaveLength(1);
  });

  it('answers 409 when the request is no longer at the documents step', async () => {
    const { user, diplomaId } = await withDocuments();
    await placeAtStep(app, user, NEXT);
    const res = await post(user, DELETE, { file_id: diplomaId });
    expect(res.statusCode).toBe(409);
    expect(res.json().payload.step).toBe(NEXT);
  });

  it('needs a file id', async () => {
    const { user } = await withDocuments();
    expect((await post(user, DELETE, {})).statusCode).toBe(422);
  });
});

describe(`POST ${ACK}`, () => {
  it('records the acknowledgement once and answers when it was recorded', async () => {
    const user = await registerUser(app, { type: 2 });
    const first = await post(user, ACK);
    expect(first.statusCode).toBe(200);
    const at = first.json().payload.acknowledged_at as string;
    expect(new Date(at).toString()).not.toBe('Invalid Date');
    const second = await post(user, ACK, {});
    expect(second.json().payload.acknowledged_at).toBe(at);
    const rows = await app.db
      .select()
      .from(userMeta)
      .where(and(eq(userMeta.userId, user.user.id), eq(userMeta.metaKey, 'attorney_acknowledged_at')));
    expect(rows).toHaveLength(1);
  });
});
