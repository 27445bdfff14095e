import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { Wizard } from '@/engine/Wizard';
import type { EngineApi } from '@/engine/api';
import type { RegistrationRequest } from '@/core/api-types';
import { dataUrlToBlob } from '../../widgets/signature-pad/SignatureField';
import { fakeDossier, fakeServices, location, renderAt, request, stepText, t } from '../engine/render';


/** jsdom draws nothing: a stand-in for signature_pad with the same surface, driven by the test. */
const pads = vi.hoisted(() => [] as FakePadShape[]);
interface FakePadShape extends EventTarget {
  canvas: HTMLCanvasElement;
  options: Record<string, unknown>;
  fromData: ReturnType<typeof vi.fn>;
  draw(): void;
  isEmpty(): boolean;
  enabled: boolean;
}

vi.mock('signature_pad', () => {
  // A 1×1 PNG.
  const PNG_URL = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
  class FakePad extends EventTarget {
    data: unknown[] = [];
    enabled = true;
    fromData = vi.fn((groups: unknown[]) => {
      this.data = [...groups];
    });
    constructor(
      readonly canvas: HTMLCanvasElement,
      readonly options: Record<string, unknown>,
    ) {
      super();
      pads.push(this as unknown as FakePadShape);
    }
    isEmpty() {
      return this.data.length === 0;
    }
    clear() {
      this.data = [];
    }
    toData() {
      return this.data;
    }
    toDataURL() {
      return PNG_URL;
    }
    on() {
      this.enabled = true;
    }
    off() {
      this.enabled = false;
    }
    /** A stroke by the user: points recorded, then signature_pad's `endStroke`. */
    draw() {
      this.data.push({ penColor: this.options.penColor, points: [{ x: 10, y: 10, pressure: 0.5, time: 1 }] });
      this.dispatchEvent(new CustomEvent('endStroke'));
    }
  }
  return { default: FakePad };
});

// The signature field as the flow names it ("ui:field": "signature"), whether or not the registry has it yet.
vi.mock('../../widgets/registry', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../widgets/registry')>();
  const { default: SignatureField } = await import('../../widgets/signature-pad/SignatureField');
  return { ...original, fields: { ...original.fields, signature: SignatureField } };
});

const STEP = 'requesting-company-step-5';
const SAVED = { id: 5, url: '/api/files/5' };

function atSignature(media: Record<string, unknown> = {}): RegistrationRequest {
  return { ...request(STEP), media };
}

/** An engine API at the signature step; `current` is what GET answers (reloadRequest). */
function engine(initial: RegistrationRequest) {
  let current = initial;
  const forms: { url: string; form: FormData }[] = [];
  const api: EngineApi = {
    get: vi.fn(async () => current) as EngineApi['get'],
    post: vi.fn(async (url: string) => {
      throw new Error(`unexpected POST ${url}`);
    }) as EngineApi['post'],
    postForm: vi.fn(async (url: string, form: FormData) => {
      forms.push({ url, form });
      return request('requesting-company-step-6');
    }) as NonNullable<EngineApi['postForm']>,
  };
  return { api, forms, setCurrent: (next: RegistrationRequest) => (current = next) };
}

const next = () => screen.getByRole('button', { name: stepText('requesting-company-step-5', 'submit') }) as HTMLButtonElement;
const clearButton = () => screen.getByRole('button', { name: `${t('steps:signature.clear')} ${t('steps:signature.clearWhat')}` }) as HTMLButtonElement;
const pad = () => pads[pads.length - 1];
const draw = () => act(() => pad().draw());

async function show(initial: RegistrationRequest, services = fakeServices()) {
  const setup = engine(initial);
  renderAt('/infiintare-pfa/5', <Wizard registrationType={2} api={setup.api} services={services} />);
  await screen.findByRole('heading', { name: t('steps:signature.title') });
  await screen.findByRole('img', { name: t('steps:signature.padLabel') });
  // The pad is made in an effect after the canvas is shown: a hand can draw once it exists.
  await waitFor(() => expect(pads.length).toBeGreaterThan(0));
  return setup;
}

beforeEach(() => {
  pads.length = 0;
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(() => ({ scale: vi.fn() }) as never);
  URL.revokeObjectURL ??= () => undefined;
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('signature step (flows/new-pfa.json step 5)', () => {
  it('an empty pad and nothing saved: the pad, its labels, the consent text, "next" disabled', async () => {
    await show(atSignature());
    const canvas = await screen.findByRole('img', { name: t('steps:signature.padLabel') }) as HTMLCanvasElement;
    expect(canvas.tagName).toBe('CANVAS');
    expect(canvas.style.touchAction).toBe('none');
    expect(canvas.style.height).toBe('233px');
    expect(canvas.style.width).toBe('100%');
    expect(pad().options).toEqual({ penColor: 'blue', minWidth: 0.5, maxWidth: 2.5 });
    await waitFor(() => expect(screen.getByRole('group', { name: t('steps:signature.intro') })).toBeTruthy());

    await waitFor(() => expect(screen.getByText(t('steps:signature.consent'))).toBeTruthy());
    expect(screen.queryByText(t('steps:signature.saved'))).toBeNull();
    // Shown: the word; said by a screen reader: the word and what it clears (its name contains what is seen).
    expect(clearButton().firstChild?.textContent).toBe(t('steps:signature.clear'));
    expect(clearButton().disabled).toBe(true);
    await waitFor(() => expect(screen.getByTestId('signature-step').dataset.state).toBe('empty'));
    expect(next().disabled).toBe(true);
  });

  it('a drawing enables "next", which sends it as semnatura.png with signature=new', async () => {
    const { forms } = await show(atSignature());
    await draw();
    await waitFor(() => expect(next().disabled).toBe(false));
    expect(clearButton().disabled).toBe(false);

    fireEvent.click(next());
    await waitFor(() => expect(forms).toHaveLength(1));
    const { url, form } = forms[0];
    expect(url).toBe('/api/registration/collect/signature');
    expect(form.get('signature')).toBe('new');
    expect(form.get('current_step_identifier')).toBe(STEP);
    const file = form.get('file') as File;
    expect(file.name).toBe('semnatura.png');
    expect(file.type).toBe('image/png');
    const bytes = new Uint8Array(await file.arrayBuffer());
    expect([...bytes.slice(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    await waitFor(() => expect(location()).toBe('/infiintare-pfa/6'));
  });

  it.each([
    ['a failed upload', { status: 500, message: '' }, null],
    ['a refused one', { status: 422, message: 'Semnează în chenar.', fieldErrors: { file: ['Semnează în chenar.'] } }, 'Semnează în chenar.'],
  ])('%s: the toast "Semnătura nu a putut fi salvata!", and the step stays', async (_name, failure, reason) => {
    const notify = vi.fn();
    const { api } = await show(atSignature(), fakeServices({ notify }));
    vi.mocked(api.postForm!).mockRejectedValueOnce(failure);
    await draw();
    await waitFor(() => expect(next().disabled).toBe(false));
    fireEvent.click(next());
    await waitFor(() => expect(notify).toHaveBeenCalledWith('error', t('steps:signature.saveError')));
    if (reason) expect(await screen.findByText(reason)).toBeTruthy();
    else expect(await screen.findByText(t('steps:signature.saveError'))).toBeTruthy();
    expect(location()).toBe('/infiintare-pfa/5');
  });

  it('"Șterge" empties the pad and disables "next" again', async () => {
    await show(atSignature());
    await draw();
    await waitFor(() => expect(next().disabled).toBe(false));
    fireEvent.click(clearButton());
    await waitFor(() => expect(next().disabled).toBe(true));
    expect(pad().isEmpty()).toBe(true);
    await waitFor(() => expect(screen.getByTestId('signature-step').dataset.state).toBe('empty'));
  });

  it('keeps the drawing when the window is resized: scaled for the pixel ratio and drawn again', async () => {
    await show(atSignature());
    await draw();
    const canvas = pad().canvas;
    Object.defineProperty(canvas, 'offsetWidth', { configurable: true, value: 360 });
    Object.defineProperty(canvas, 'offsetHeight', { configurable: true, value: 233 });
    const ratio = vi.spyOn(window, 'devicePixelRatio', 'get').mockReturnValue(2);
    act(() => {
      window.dispatchEvent(new Event('resize'));
    });
    expect(canvas.width).toBe(720);
    expect(canvas.height).toBe(466);
    expect(pad().fromData).toHaveBeenCalledWith([expect.objectContaining({ penColor: 'blue' })]);
    await waitFor(() => expect(screen.getByTestId('signature-step').dataset.state).toBe('new'));
    expect(next().disabled).toBe(false);
    ratio.mockRestore();
  });

  it('a saved signature: shown with "Semnătura a fost încărcată"; "next" keeps it (signature=saved, no file)', async () => {
    const { forms } = await show(atSignature({ signature_document: SAVED }));
    expect(await screen.findByText(t('steps:signature.saved'))).toBeTruthy();
    const image = (await screen.findByRole('img', { name: t('steps:signature.savedAlt') })) as HTMLImageElement;
    expect(image.getAttribute('src')).toBe('blob:/api/files/5');
    await waitFor(() => expect(next().disabled).toBe(false));

    fireEvent.click(next());
    await waitFor(() => expect(forms).toHaveLength(1));
    expect(forms[0].form.get('signature')).toBe('saved');
    expect(forms[0].form.get('file')).toBeNull();
  });

  it('deleting the saved signature calls the service and reloads the request; then "next" is disabled', async () => {
    const dossier = fakeDossier();
    const setup = await show(atSignature({ signature_document: SAVED }), fakeServices({ dossier }));
    await screen.findByText(t('steps:signature.saved'));
    setup.setCurrent(atSignature({ signature_document: null }));
    fireEvent.click(await screen.findByRole('button', { name: t('steps:signature.deleteSaved') }));
    await waitFor(() => expect(dossier.deleteSignature).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(screen.queryByText(t('steps:signature.saved'))).toBeNull());
    expect(setup.api.get).toHaveBeenCalledTimes(2);
    await waitFor(() => expect(next().disabled).toBe(true));
    // The pad was not rebuilt by the reload: one pad for the whole step.
    expect(pads).toHaveLength(1);
  });

  it('a failed delete says "Eroare la ștergerea imaginii!" and keeps the signature', async () => {
    const dossier = fakeDossier();
    vi.mocked(dossier.deleteSignature).mockRejectedValueOnce(new Error('500'));
    await show(atSignature({ signature_document: SAVED }), fakeServices({ dossier }));
    fireEvent.click(await screen.findByRole('button', { name: t('steps:signature.deleteSaved') }));
    expect((await screen.findByRole('alert')).textContent).toBe(t('steps:signature.deleteError'));
    await waitFor(() => expect(screen.getByText(t('steps:signature.saved'))).toBeTruthy());
    expect(next().disabled).toBe(false);
  });

  it('a drawing over a saved signature is sent as the new one', async () => {
    const { forms } = await show(atSignature({ signature_document: SAVED }));
    await draw();
    await waitFor(() => expect(screen.getByTestId('signature-step').dataset.state).toBe('new'));
    fireEvent.click(next());
    await waitFor(() => expect(forms).toHaveLength(1));
    expect(forms[0].form.get('signature')).toBe('new');
    expect((forms[0].form.get('file') as File).name).toBe('semnatura.png');
  });
});

describe('dataUrlToBlob', () => {
  it('decodes a base64 data URL with its type', async () => {
    const blob = dataUrlToBlob('data:image/png;base64,' + btoa('\x89PNG'));
    expect(blob.type).toBe('image/png');
    expect([...new Uint8Array(await blob.arrayBuffer())]).toEqual([0x89, 0x50, 0x4e, 0x47]);
  });
});
