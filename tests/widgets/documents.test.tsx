import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Wizard } from '@/engine/Wizard';
import type { EngineApi } from '@/engine/api';
import type { RegistrationRequest } from '@/core/api-types';
import type { DossierService } from '../../widgets/types';
import { fakeDossier, fakeServices, location, renderAt, request, stepText, t } from '../engine/render';
import { textPattern } from '../copy';


// Only the documents field ("ui:field": "documents"): the test does not depend on other widgets being in place.
vi.mock('../../widgets/registry', async () => {
  const { default: DocumentsField } = await import('../../widgets/documents/DocumentsField');
  return { widgets: {}, fields: { documents: DocumentsField } };
});

const STEP = 'requesting-company-step-3';
const COLLECT = '/api/registration/collect/diploma-documents';
const REJECTED = t('steps:documents.uploadError');

function atDocuments(formData: Record<string, unknown> = {}, media: Record<string, unknown> = {}): RegistrationRequest {
  return { ...request(STEP, formData), media };
}

/** The engine's API at the documents step: each multipart submit answers with `answer()` (default: the next step). */
function engine(initial: RegistrationRequest) {
  let current = initial;
  const forms: { url: string; form: FormData }[] = [];
  let answer: () => Promise<RegistrationRequest> = async () => request('requesting-company-step-4');
  const api: EngineApi = {
    get: vi.fn(async () => current) as EngineApi['get'],
    post: vi.fn(async (url: string) => {
      throw new Error(`unexpected POST ${url}`);
    }) as EngineApi['post'],
    postForm: vi.fn(async (url: string, form: FormData, onProgress?: (f: number) => void) => {
      forms.push({ url, form });
      onProgress?.(0.5);
      return answer();
    }) as NonNullable<EngineApi['postForm']>,
  };
  return {
    api,
    forms,
    setCurrent: (next: RegistrationRequest) => (current = next),
    answerWith: (fn: () => Promise<RegistrationRequest>) => (answer = fn),
  };
}

function dossierWithDocuments(): DossierService & { deleteDocument: ReturnType<typeof vi.fn>; acknowledgeAttorney: ReturnType<typeof vi.fn> } {
  return { ...fakeDossier(), deleteDocument: vi.fn(async () => undefined), acknowledgeAttorney: vi.fn(async () => undefined) };
}

async function show(initial: RegistrationRequest, dossier = dossierWithDocuments()) {
  const setup = engine(initial);
  renderAt('/infiintare-pfa/3', <Wizard registrationType={2} api={setup.api} services={fakeServices({ dossier })} />);
  await screen.findByRole('heading', { name: t('steps:documents.title') });
  await screen.findByTestId('documents-step');
  // The step's buttons can come a render after its section on a loaded machine.
  await screen.findByRole('button', { name: stepText('requesting-company-step-3', 'submit') });
  return { ...setup, dossier };
}

const next = () => screen.getByRole('button', { name: stepText('requesting-company-step-3', 'submit') }) as HTMLButtonElement;
const file = (name: string, type: string, size = 10) => new File([new Uint8Array(size)], name, { type });
function choose(files: File[], testId = 'documents-input') {
  fireEvent.change(screen.getByTestId(testId), { target: { files } });
}

/** Presses "next" twice: the power-of-attorney screen, then the submit. */
async function submitTwice() {
  fireEvent.click(await screen.findByRole('button', { name: stepText('requesting-company-step-3', 'submit') }));
  await screen.findByTestId('attorney-screen');
  fireEvent.click(await screen.findByRole('button', { name: stepText('requesting-company-step-3', 'submit') }));
}

beforeEach(() => {
  URL.createObjectURL = vi.fn((blob: Blob) => `blob:${(blob as File).name}`);
  URL.revokeObjectURL = vi.fn();
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('documents step (flows/new-pfa.json step 3)', () => {
  it('shows the diploma copy; "next" stays disabled until a file or "send later"', async () => {
    await show(atDocuments());
    await waitFor(() => expect(screen.getByRole('heading', { name: t('steps:documents.diplomaHeading') })).toBeTruthy());
    // The chooser offers what the server accepts: images it can read, HEIC, PDF, DOC, DOCX; not any image.
    const accept = (await screen.findByTestId('documents-input')).getAttribute('accept')!.split(',');
    expect(accept).toEqual(expect.arrayContaining(['image/jpeg', 'image/png', '.heic', '.pdf', '.doc', '.docx']));
    expect(accept).not.toContain('image/*');
    await waitFor(() => expect(next().disabled).toBe(true));
    fireEvent.click(await screen.findByRole('button', { name: t('steps:documents.sendLater') }));
    await waitFor(() => expect(next().disabled).toBe(false));
    await waitFor(() => expect(screen.getByRole('button', { name: t('steps:documents.sendLater') }).getAttribute('aria-pressed')).toBe('true'));
    // No licence block without a licence option.
    expect(screen.queryByRole('radio')).toBeNull();
  });

  it('added files are listed with a preview and sent as files[i]; the attorney screen comes first', async () => {
    const { forms, dossier } = await show(atDocuments());
    choose([file('diploma.jpg', 'image/jpeg'), file('foaie-matricola.pdf', 'application/pdf')]);
    const rows = await screen.findAllByTestId('pending-file');
    expect(rows).toHaveLength(2);
    await waitFor(() => expect((within(rows[0]).getByRole('img', { name: 'diploma.jpg' }) as HTMLImageElement).src).toBe('blob:diploma.jpg'));
    await waitFor(() => expect(within(rows[1]).getByText('PDF')).toBeTruthy());
    await waitFor(() => expect(next().disabled).toBe(false));

    fireEvent.click(next());
    const info = await screen.findByTestId('attorney-screen');
    expect(info.textContent).toContain(t('steps:documents.attorney.cost'));
    expect(info.textContent).toContain(t('steps:documents.attorney.after'));
    expect(dossier.acknowledgeAttorney).toHaveBeenCalledTimes(1);
    expect(forms).toHaveLength(0);

    fireEvent.click(next());
    await waitFor(() => expect(forms).toHaveLength(1));
    const { url, form } = forms[0];
    expect(url).toBe(COLLECT);
    expect(form.get('send_diploma_later')).toBe('false');
    expect(form.get('current_step_identifier')).toBe(STEP);
    expect((form.get('files[0]') as File).name).toBe('diploma.jpg');
    expect((form.get('files[1]') as File).name).toBe('foaie-matricola.pdf');
    expect(form.get('driverLicenseFiles[0]')).toBeNull();
    await waitFor(() => expect(location()).toBe('/infiintare-pfa/4'));
  });

  it('a removed pending file is not sent and the others are re-indexed', async () => {
    const { forms } = await show(atDocuments());
    choose([file('a.pdf', 'application/pdf'), file('b.pdf', 'application/pdf')]);
    const rows = await screen.findAllByTestId('pending-file');
    fireEvent.click(await within(rows[0]).findByRole('button', { name: t('steps:documents.deleteLabel', { name: 'a.pdf' }) }));
    await waitFor(() => expect(screen.getAllByTestId('pending-file')).toHaveLength(1));
    await submitTwice();
    await waitFor(() => expect(forms).toHaveLength(1));
    expect((forms[0].form.get('files[0]') as File).name).toBe('b.pdf');
    expect(forms[0].form.get('files[1]')).toBeNull();
  });

  it('a refused file shows its own error and the general message; the attorney screen hides again', async () => {
    const setup = await show(atDocuments());
    setup.answerWith(async () => {
      throw { status: 422, message: REJECTED, fieldErrors: { 'files.1': [REJECTED] } };
    });
    choose([file('ok.pdf', 'application/pdf'), file('fals.pdf', 'application/pdf')]);
    await screen.findAllByTestId('pending-file');
    await submitTwice();
    await waitFor(() => expect(setup.forms).toHaveLength(1));
    await waitFor(() => expect(screen.queryByTestId('attorney-screen')).toBeNull());
    const rows = await screen.findAllByTestId('pending-file');
    await waitFor(() => expect(within(rows[1]).getByRole('alert').textContent).toBe(REJECTED));
    expect(within(rows[0]).queryByRole('alert')).toBeNull();
    expect(screen.getAllByRole('alert').map((a) => a.textContent)).toContain(REJECTED);
    expect(next().disabled).toBe(true);

    // Removing the bad file clears the errors; the next press shows the attorney screen again.
    fireEvent.click(await within(rows[1]).findByRole('button', { name: t('steps:documents.deleteLabel', { name: 'fals.pdf' }) }));
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    await waitFor(() => expect(next().disabled).toBe(false));
    fireEvent.click(next());
    await screen.findByTestId('attorney-screen');
  });

  it('saved documents are listed; deleting one calls the service and reloads the request', async () => {
    const saved = { id: 7, name: 'diploma.png', url: '/api/files/7' };
    const setup = await show(atDocuments({ send_diploma_later: false }, { diploma_documents: [saved] }));
    const row = await screen.findByTestId('saved-file');
    expect(((await within(row).findByRole('img', { name: 'diploma.png' })) as HTMLImageElement).src).toBe('blob:/api/files/7');
    await waitFor(() => expect(next().disabled).toBe(false));

    setup.setCurrent(atDocuments({ send_diploma_later: false }, { diploma_documents: [] }));
    fireEvent.click(await within(row).findByRole('button', { name: t('steps:documents.deleteLabel', { name: 'diploma.png' }) }));
    await waitFor(() => expect(setup.dossier.deleteDocument).toHaveBeenCalledWith(7));
    await waitFor(() => expect(screen.queryByTestId('saved-file')).toBeNull());
    await waitFor(() => expect(next().disabled).toBe(true));
  });

  it('a failed delete says "Eroare la ștergerea imaginii!"', async () => {
    const dossier = dossierWithDocuments();
    dossier.deleteDocument.mockRejectedValueOnce(new Error('500'));
    await show(atDocuments({}, { diploma_documents: [{ id: 8, name: 'diploma.pdf', url: '/api/files/8' }] }), dossier);
    fireEvent.click(await screen.findByRole('button', { name: t('steps:documents.deleteLabel', { name: 'diploma.pdf' }) }));
    expect((await screen.findByRole('alert')).textContent).toBe(t('steps:documents.deleteError'));
    await waitFor(() => expect(screen.getByTestId('saved-file')).toBeTruthy());
  });

  it('"send later" clears the chosen files; adding a file clears "send later"', async () => {
    const { forms } = await show(atDocuments());
    choose([file('a.pdf', 'application/pdf')]);
    await screen.findByTestId('pending-file');
    fireEvent.click(await screen.findByRole('button', { name: t('steps:documents.sendLater') }));
    await waitFor(() => expect(screen.queryByTestId('pending-file')).toBeNull());
    choose([file('b.pdf', 'application/pdf')]);
    await waitFor(() => expect(screen.getByRole('button', { name: t('steps:documents.sendLater') }).getAttribute('aria-pressed')).toBe('false'));
    fireEvent.click(await screen.findByRole('button', { name: t('steps:documents.sendLater') }));
    await submitTwice();
    await waitFor(() => expect(forms).toHaveLength(1));
    expect(forms[0].form.get('send_diploma_later')).toBe('true');
    expect(forms[0].form.get('files[0]')).toBeNull();
  });

  it('courier: upload / send later / no licence; "next" waits for an answer and a licence file for "upload"', async () => {
    const { forms } = await show(atDocuments({ activity: 'curier', send_diploma_later: true }));
    await waitFor(() => expect(screen.getByRole('heading', { name: t('steps:documents.licence.courierHeading') })).toBeTruthy());
    const radios = screen.getAllByRole('radio');
    expect(radios).toHaveLength(3);
    await waitFor(() => expect(screen.getByLabelText(t('steps:documents.licence.none'))).toBeTruthy());
    await waitFor(() => expect(next().disabled).toBe(true));

    fireEvent.click(await screen.findByLabelText(t('steps:documents.licence.upload')));
    await screen.findByTestId('licence-input');
    expect(next().disabled).toBe(true);
    choose([file('permis.jpg', 'image/jpeg')], 'licence-input');
    await screen.findByTestId('pending-licence');
    await waitFor(() => expect(next().disabled).toBe(false));

    // Removing the last licence file goes back to "send later".
    fireEvent.click(await screen.findByRole('button', { name: t('steps:documents.deleteLabel', { name: 'permis.jpg' }) }));
    await waitFor(() => expect((screen.getByLabelText(t('steps:documents.licence.later')) as HTMLInputElement).checked).toBe(true));
    expect(screen.queryByTestId('licence-input')).toBeNull();

    fireEvent.click(await screen.findByLabelText(t('steps:documents.licence.none')));
    await waitFor(() => expect(next().disabled).toBe(false));
    await submitTwice();
    await waitFor(() => expect(forms).toHaveLength(1));
    expect(forms[0].form.get('driver_license_status')).toBe('0');
    expect(forms[0].form.get('send_diploma_later')).toBe('true');
  });

  it('taxi: no "no licence" option; the licence files go as driverLicenseFiles[i]', async () => {
    const { forms } = await show(atDocuments({ activity: 'taxi', send_diploma_later: true }));
    await waitFor(() => expect(screen.getByRole('heading', { name: t('steps:documents.licence.taxiHeading') })).toBeTruthy());
    await waitFor(() => expect(screen.getAllByRole('radio')).toHaveLength(2));
    fireEvent.click(await screen.findByLabelText(t('steps:documents.licence.upload')));
    choose([file('permis.pdf', 'application/pdf'), file('atestat.pdf', 'application/pdf')], await screen.findByTestId('licence-input').then(() => 'licence-input'));
    await waitFor(() => expect(screen.getAllByTestId('pending-licence')).toHaveLength(2));
    await submitTwice();
    await waitFor(() => expect(forms).toHaveLength(1));
    expect(forms[0].form.get('driver_license_status')).toBe('2');
    expect((forms[0].form.get('driverLicenseFiles[1]') as File).name).toBe('atestat.pdf');
  });

  it('credit partner, credit consultant: no certificate block, the partner note, status 1', async () => {
    const partner = { slug: 'icredit', is_unaffiliated: false, name: 'iCredit' };
    const setup = engine({ ...request(STEP, { activity: 'consultant-credite', send_diploma_later: true }, partner), media: {} });
    renderAt('/infiintare-pfa/3', <Wizard registrationType={2} api={setup.api} services={fakeServices({ dossier: dossierWithDocuments() })} />);
    await screen.findByTestId('documents-step');
    expect(screen.queryByRole('radio')).toBeNull();
    await waitFor(() => expect(screen.getByText(textPattern(t('steps:documents.licence.creditPartnerNote')))).toBeTruthy());
    await waitFor(() => expect(next().disabled).toBe(false));
    await submitTwice();
    await waitFor(() => expect(setup.forms).toHaveLength(1));
    expect(setup.forms[0].form.get('driver_license_status')).toBe('1');
  });

  it('the psychotherapist variant shows its own heading', async () => {
    await show(atDocuments({ activity: 'psihoterapeut' }));
    await waitFor(() => expect(screen.getByRole('heading', { name: t('steps:documents.psychotherapistHeading') })).toBeTruthy());
  });
});
