import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { Wizard } from '@/engine/Wizard';
import type { EngineApi } from '@/engine/api';
import type { RegistrationRequest } from '@/core/api-types';
import type { IdentitySession, Profile } from '../../widgets/types';
import userEvent from '@testing-library/user-event';
import { fakeIdentity, fakeServices, location, renderAt, request, stepText, t } from './render';
import { textPattern, textStart } from '../copy';
import { choose } from '../widgets/helpers';

const COMPLETE: Profile = {
  first_name: 'Ana',
  last_name: 'Popescu',
  personal_code: '2900101123458',
  place_of_birth: 'Cluj-Napoca',
  county_id: 12,
  county: 'Cluj',
  city_id: 1201,
  city: 'Cluj-Napoca',
  street: 'Memorandumului',
  number: '28',
  address_1: 'Str. Memorandumului nr. 28',
  address_2: 'Cluj-Napoca, județul Cluj',
};

const UPLOADED: IdentitySession['uploads'] = {
  'document-front': { file_id: 1, preview_url: '/api/files/1' },
  'document-back': { file_id: 2, preview_url: '/api/files/2' },
  face: { file_id: 3, preview_url: '/api/files/3' },
};

/** An engine API whose request (and its profile) the test changes; records the POSTs. */
function api(profile: () => Profile = () => ({})) {
  const posts: { url: string; body: unknown }[] = [];
  const current = (): RegistrationRequest => ({ ...request('requesting-company-step-1'), profile: profile() as Record<string, unknown> });
  const engine: EngineApi = {
    get: vi.fn(async () => current()) as EngineApi['get'],
    post: vi.fn(async (url: string, body?: unknown) => {
      posts.push({ url, body });
      if (url === '/api/registration/confirm/identity-file') return request('requesting-company-step-2');
      throw new Error(`unexpected POST ${url}`);
    }) as EngineApi['post'],
  };
  return { engine, posts };
}

const png = (name: string) => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], name, { type: 'image/png' });
const input = (context: string) => document.querySelector<HTMLInputElement>(`input[name="${context}"]`)!;
const next = () => screen.getByRole('button', { name: stepText('requesting-company-step-1', 'submit') });
/** The photos' names on the step (`contexts`) and in the error texts (`contextNames`). */
const SLOTS = ['front', 'back', 'face'] as const;
type Slot = (typeof SLOTS)[number];
/** A slot's button before its photo: "Alege fotografia: fața buletinului". */
const chooseName = (slot: Slot) => `${t('steps:identity.choose')}: ${t(`steps:identity.contexts.${slot}`).toLowerCase()}`;
const previewAlt = (slot: Slot) => t('steps:identity.previewAlt', { label: t(`steps:identity.contexts.${slot}`) });
const anyPreview = (name: string) => SLOTS.some((slot) => name === previewAlt(slot));

async function uploadAll(prefix = 'buletin') {
  for (const context of ['document-front', 'document-back', 'face']) {
    fireEvent.change(input(context), { target: { files: [png(`${prefix}-${context}.png`)] } });
    await waitFor(() => expect(screen.getByTestId(`identity-slot-${context}`).dataset.state).toBe('completed'));
  }
}

beforeEach(() => {
  URL.createObjectURL ??= () => 'blob:local';
  URL.revokeObjectURL ??= () => undefined;
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('identity step (flows/new-pfa.json step 1)', () => {
  it('desktop: QR hand-over first, then uploads in order, submit, the wait, approval without an address', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const idv = fakeIdentity();
    let profile: Profile = {};
    const { engine } = api(() => profile);
    renderAt('/infiintare-pfa/1', <Wizard registrationType={2} api={engine} services={fakeServices({ identity: idv.service })} />);

    expect(await screen.findByRole('heading', { name: t('steps:identity.title') })).toBeTruthy();
    const qr = await screen.findByTestId('identity-qr');
    expect(qr.dataset.link).toContain('redirect=collect-user-profile-step');
    expect(qr.getAttribute('aria-label')).toBe(t('steps:identity.handOver.qrLabel'));
    fireEvent.click(await screen.findByRole('button', { name: t('steps:identity.handOver.desktop') }));

    // Ordered: the back and the selfie wait for the front.
    const choose = (slot: Slot) => screen.getByRole('button', { name: chooseName(slot) });
    expect(choose('front').hasAttribute('disabled')).toBe(false);
    expect(choose('back').hasAttribute('disabled')).toBe(true);
    expect(choose('face').hasAttribute('disabled')).toBe(true);
    expect(input('document-front').accept).toContain('.heic');
    expect(input('face').getAttribute('capture')).toBeNull();
    const send = await screen.findByRole('button', { name: t('steps:identity.submit') });
    expect(send.hasAttribute('disabled')).toBe(true);

    await uploadAll();
    expect(idv.calls.filter((c) => c.startsWith('upload'))).toEqual([
      'upload:document-front:buletin-document-front.png',
      'upload:document-back:buletin-document-back.png',
      'upload:face:buletin-face.png',
    ]);
    expect(idv.calls.filter((c) => c === 'createSession')).toHaveLength(1);
    await waitFor(() => expect(send.hasAttribute('disabled')).toBe(false));
    fireEvent.click(send);
    expect(await screen.findByText(textPattern(t('steps:identity.waiting')))).toBeTruthy();
    expect(next().hasAttribute('disabled')).toBe(true);

    // Approved at the next 5 s poll; the decision filled the name but no address yet.
    profile = { first_name: 'Ana', last_name: 'Popescu', personal_code: '2900101123458' };
    idv.decide(2);
    await act(() => vi.advanceTimersByTimeAsync(5000));
    expect(await screen.findByText(t('steps:identity.approved'))).toBeTruthy();
    await waitFor(() => expect(screen.getByText(t('steps:identity.missingAddress'))).toBeTruthy());
    expect(next().hasAttribute('disabled')).toBe(true);

  });

  it('approved without an address: "Modifică informații" opens the address form; saving it enables "Pasul următor"', async () => {
    const idv = fakeIdentity({ session_id: 's', custom_id: 'c', status: 2, submitted: true, uploads: UPLOADED });
    const named: Profile = { first_name: 'Ana', last_name: 'Popescu', personal_code: '2900101123458' };
    const { engine, posts } = api(() => ({ ...named, ...idv.profile() }));
    const user = userEvent.setup({ delay: null });
    renderAt('/infiintare-pfa/1', <Wizard registrationType={2} api={engine} services={fakeServices({ identity: idv.service })} />);
    expect(await screen.findByText(t('steps:identity.missingAddress'))).toBeTruthy();
    await waitFor(() => expect(screen.getAllByRole('img', { name: anyPreview })).toHaveLength(3));
    expect(next().hasAttribute('disabled')).toBe(true);

    await user.click(await screen.findByRole('button', { name: t('steps:identity.edit') }));
    await waitFor(() => expect((screen.getByRole('textbox', { name: textStart(t('steps:address.firstName')) }) as HTMLInputElement).value).toBe('Ana'));
    await user.type(await screen.findByRole('textbox', { name: textStart(t('steps:address.placeOfBirth')) }), 'Cluj-Napoca');
    await choose(user, screen.getByRole('combobox', { name: textStart(t('steps:address.county')) }), 'Clu', 'Cluj');
    await choose(user, screen.getByRole('combobox', { name: textStart(t('steps:address.city')) }), 'Clu', 'Cluj-Napoca');
    await user.type(await screen.findByRole('textbox', { name: textStart(t('steps:address.street')) }), 'Memorandumului');
    await user.type(await screen.findByRole('textbox', { name: textStart(t('steps:address.number')) }), '28');
    await user.click(await screen.findByRole('button', { name: t('steps:address.save') }));

    expect(await screen.findByText(t('steps:identity.saved'))).toBeTruthy();
    await waitFor(() => expect(screen.getByText('Str. Memorandumului nr. 28, Cluj-Napoca, județul Cluj')).toBeTruthy());
    expect(idv.calls).toContain('saveAddress');
    await waitFor(() => expect(next().hasAttribute('disabled')).toBe(false));
    await user.click(next());
    await waitFor(() => expect(location()).toBe('/infiintare-pfa/2'));
    expect(posts).toEqual([{ url: '/api/registration/confirm/identity-file', body: { verified: true, current_step_identifier: 'requesting-company-step-1' } }]);
  }, 30_000);

  /** Photos uploaded on the desktop and sent; the decision, 5 s later: rejected with this reason (and Veriff code). */
  async function rejectedAfterWaiting(reason: string, code: number | null = null) {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const idv = fakeIdentity();
    const { engine } = api();
    renderAt('/infiintare-pfa/1', <Wizard registrationType={2} api={engine} services={fakeServices({ identity: idv.service })} />);
    fireEvent.click(await screen.findByRole('button', { name: t('steps:identity.handOver.desktop') }));
    await uploadAll('reject');
    fireEvent.click(await screen.findByRole('button', { name: t('steps:identity.submit') }));
    await screen.findByText(textPattern(t('steps:identity.waiting')));
    idv.decide(3, reason, code);
    await act(() => vi.advanceTimersByTimeAsync(5000));
    return idv;
  }

  it('rejected: shows the reason, and "Șterge și reîncepe procesul" deletes the session and starts over', async () => {
    const idv = await rejectedAfterWaiting('Motivul trimis de server');
    expect(await screen.findByText(t('steps:identity.errors.rejected', { reason: 'Motivul trimis de server' }))).toBeTruthy();

    fireEvent.click(await screen.findByRole('button', { name: t('steps:identity.restart') }));
    expect(await screen.findByTestId('identity-qr')).toBeTruthy();
    expect(idv.calls).toContain('deleteSession');
    expect(screen.queryByText(t('steps:identity.errors.rejected', { reason: 'Motivul trimis de server' }))).toBeNull();
  });

  it("rejected with a Veriff reason code: the reason is the locale's text for that code, not the server's", async () => {
    await rejectedAfterWaiting('Textul serverului', 207);
    expect(await screen.findByText(t('steps:identity.errors.rejected', { reason: t('steps:identity.reasons.207') }))).toBeTruthy();
    expect(screen.queryByText(textPattern('Textul serverului'))).toBeNull();
  });

  it('rejected without a reason shows the generic text', async () => {
    const idv = fakeIdentity({ session_id: 's', custom_id: 'c', status: 3, submitted: true, uploads: UPLOADED });
    renderAt('/infiintare-pfa/1', <Wizard registrationType={2} api={api().engine} services={fakeServices({ identity: idv.service })} />);
    expect(await screen.findByText(t('steps:identity.errors.rejectedGeneric'))).toBeTruthy();
  });

  it('status 3 with a complete profile, address and three uploads counts as approved', async () => {
    const idv = fakeIdentity({ session_id: 's', custom_id: 'c', status: 3, submitted: true, uploads: UPLOADED });
    renderAt('/infiintare-pfa/1', <Wizard registrationType={2} api={api(() => COMPLETE).engine} services={fakeServices({ identity: idv.service })} />);
    expect(await screen.findByText(t('steps:identity.approved'))).toBeTruthy();
    await waitFor(() => expect(next().hasAttribute('disabled')).toBe(false));
    await waitFor(() => expect(screen.getAllByRole('img', { name: anyPreview })).toHaveLength(3));
  });

  it('reload in the middle restores the screen: uploads done so far, then waiting after submit', async () => {
    const idv = fakeIdentity({ session_id: 's', custom_id: 'c', status: 1, submitted: false, uploads: { ...UPLOADED, face: null } });
    renderAt('/infiintare-pfa/1', <Wizard registrationType={2} api={api().engine} services={fakeServices({ identity: idv.service })} />);
    fireEvent.click(await screen.findByRole('button', { name: t('steps:identity.handOver.desktop') }));
    await waitFor(() => expect(screen.getByTestId('identity-slot-document-front').dataset.state).toBe('completed'));
    await waitFor(() => expect(screen.getByTestId('identity-slot-document-back').dataset.state).toBe('completed'));
    await waitFor(() => expect(screen.getByRole('button', { name: chooseName('face') }).hasAttribute('disabled')).toBe(false));
    cleanup();

    idv.setSession({ session_id: 's', custom_id: 'c', status: 4, submitted: true, uploads: UPLOADED });
    renderAt('/infiintare-pfa/1', <Wizard registrationType={2} api={api().engine} services={fakeServices({ identity: idv.service })} />);
    expect(await screen.findByText(textPattern(t('steps:identity.waiting')))).toBeTruthy();
  });

  it('an upload failure names the photo in the error banner with the reload hint, and blocks the other uploads', async () => {
    const idv = fakeIdentity();
    idv.failNext('upload', { status: 500, message: '' });
    renderAt('/infiintare-pfa/1', <Wizard registrationType={2} api={api().engine} services={fakeServices({ identity: idv.service })} />);
    fireEvent.click(await screen.findByRole('button', { name: t('steps:identity.handOver.desktop') }));
    fireEvent.change(input('document-front'), { target: { files: [png('fata.png')] } });
    expect(await screen.findByText(`${t('steps:identity.errors.bannerPrefix')} ${t('steps:identity.errors.upload', { context: t('steps:identity.contextNames.front') })}`)).toBeTruthy();
    await waitFor(() => expect(screen.getByText(t('steps:identity.errors.hintReload'))).toBeTruthy());
    await waitFor(() => expect(screen.getByRole('button', { name: chooseName('front') }).hasAttribute('disabled')).toBe(true));
  });

  it('a failed session start and a failed submit show their texts', async () => {
    const idv = fakeIdentity();
    idv.failNext('createSession', { status: 502, message: '' });
    renderAt('/infiintare-pfa/1', <Wizard registrationType={2} api={api().engine} services={fakeServices({ identity: idv.service })} />);
    fireEvent.click(await screen.findByRole('button', { name: t('steps:identity.handOver.desktop') }));
    fireEvent.change(input('document-front'), { target: { files: [png('fata.png')] } });
    expect(await screen.findByText(textPattern(t('steps:identity.errors.sessionStart')))).toBeTruthy();
    // Nothing was uploaded: the slot is free to try again.
    await waitFor(() => expect(screen.getByRole('button', { name: chooseName('front') }).hasAttribute('disabled')).toBe(false));
    await uploadAll();
    idv.failNext('submit', { status: 500, message: '' });
    fireEvent.click(await screen.findByRole('button', { name: t('steps:identity.submit') }));
    expect(await screen.findByText(textPattern(t('steps:identity.errors.submit')))).toBeTruthy();
    await waitFor(() => expect(screen.getByText(t('steps:identity.errors.hintRestart'))).toBeTruthy());
  });

  it('the QR code cannot be made: its error text and the desktop fallback', async () => {
    const idv = fakeIdentity();
    idv.failNext('autoLoginLink', { status: 500, message: '' });
    renderAt('/infiintare-pfa/1', <Wizard registrationType={2} api={api().engine} services={fakeServices({ identity: idv.service })} />);
    expect(await screen.findByText(t('steps:identity.errors.qr'))).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: t('steps:identity.handOver.desktop') }));
    await waitFor(() => expect(screen.getByRole('button', { name: chooseName('front') })).toBeTruthy());
  });

  it('while handed over, the desktop polls every 3 s and shows the photos as they arrive', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const idv = fakeIdentity();
    renderAt('/infiintare-pfa/1', <Wizard registrationType={2} api={api().engine} services={fakeServices({ identity: idv.service })} />);
    await screen.findByTestId('identity-qr');
    expect(screen.queryByTestId('identity-slot-document-front')).toBeNull();
    idv.setSession({ session_id: 's', custom_id: 'c', status: 1, submitted: false, uploads: { ...UPLOADED, 'document-back': null, face: null } });
    await act(() => vi.advanceTimersByTimeAsync(3000));
    await waitFor(() => expect(screen.getByTestId('identity-slot-document-front').dataset.state).toBe('completed'));
    await waitFor(() => expect(screen.getByRole('img', { name: previewAlt('front') })).toBeTruthy());
    // The phone submitted: the desktop waits for the decision too.
    idv.setSession({ session_id: 's', custom_id: 'c', status: 4, submitted: true, uploads: UPLOADED });
    await act(() => vi.advanceTimersByTimeAsync(3000));
    expect(await screen.findByText(textPattern(t('steps:identity.waiting')))).toBeTruthy();
  });

  it('a session deleted elsewhere (404 VERIFF_SESSION_NOT_FOUND) says so before the page reloads', async () => {
    const idv = fakeIdentity();
    idv.failNext('lastSession', { status: 404, message: '', code: 'VERIFF_SESSION_NOT_FOUND' });
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const reloadPage = vi.fn();
    renderAt('/infiintare-pfa/1', <Wizard registrationType={2} api={api().engine} services={fakeServices({ identity: idv.service, reloadPage })} />);
    expect(await screen.findByText(t('steps:identity.sessionLost'))).toBeTruthy();
    // The page reloads through the formContext service 3 s later (spec 000 §4.4), not before.
    await act(() => vi.advanceTimersByTimeAsync(2000));
    expect(reloadPage).not.toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(reloadPage).toHaveBeenCalledTimes(1);
  });
});
