import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Wizard } from '@/engine/Wizard';
import { fakeApi, fakeServices, location, renderAt, request, stepText, t } from './render';
import { textPattern } from '../copy';

afterEach(cleanup);

const button = (name: string) => screen.getByRole('button', { name });

describe('the new-PFA wizard (flows/new-pfa.json)', () => {
  it('jumps from the base path to the current step and shows progress', async () => {
    const { api } = fakeApi(request('requesting-company-step-4'));
    renderAt('/infiintare-pfa', <Wizard registrationType={2} api={api} services={fakeServices()} />);
    expect(await screen.findByRole('heading', { name: t('steps:civilStatus.title') })).toBeTruthy();
    expect(location()).toBe('/infiintare-pfa/4');
    await waitFor(() => expect(screen.getByTestId('wizard-progress').textContent).toBe(t('steps:common.progress', { position: 5, total: 10 })));
  });

  it('shows the step name from the flow file beside the counter', async () => {
    const { api } = fakeApi(request('requesting-company-step-4'));
    renderAt('/infiintare-pfa/4', <Wizard registrationType={2} api={api} services={fakeServices()} />);
    await waitFor(() => expect(screen.getByTestId('wizard-step-name').textContent).toBe(t('steps:names.civilStatus')));
    expect(screen.getByTestId('wizard-progress').textContent).toBe(t('steps:common.progress', { position: 5, total: 10 }));
  });

  it('identity: the flow file’s intro, privacy note (with the privacy page) and photo tips above the widget', async () => {
    const { api } = fakeApi(request('requesting-company-step-1'));
    const services = { ...fakeServices(), legal: { termsUrl: '/termeni', privacyUrl: '/confidentialitate' } };
    renderAt('/infiintare-pfa/1', <Wizard registrationType={2} api={api} services={services} />);
    const note = await screen.findByTestId('step-privacy-note');
    // What the three photos are, once: the flow file's copy `intro` (so also in the step's prerendered shell), first.
    const intro = screen.getAllByText(stepText('requesting-company-step-1', 'intro'));
    expect(intro).toHaveLength(1);
    expect(intro[0].getAttribute('data-testid')).toBe('step-intro');
    expect(intro[0].compareDocumentPosition(note) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(note.textContent?.startsWith(stepText('requesting-company-step-1', 'privacyNote'))).toBe(true);
    expect(within(note).getByRole('link', { name: t('steps:common.privacyLink') }).getAttribute('href')).toBe('/confidentialitate');
    const tips = screen.getByRole('region', { name: stepText('requesting-company-step-1', 'tipsTitle') });
    expect(within(tips).getAllByRole('listitem')).toHaveLength(stepText('requesting-company-step-1', 'tips').split('\n').filter(Boolean).length);
  });

  it('step guard: typing another step’s URL lands on the current step', async () => {
    const { api } = fakeApi(request('requesting-company-step-2'));
    renderAt('/infiintare-pfa/8', <Wizard registrationType={2} api={api} services={fakeServices()} />);
    expect(await screen.findByRole('heading', { name: t('steps:activities.title') })).toBeTruthy();
    expect(location()).toBe('/infiintare-pfa/2');
  });

  it('questionnaire: at least one box, "niciuna" is exclusive, and it opens the flow', async () => {
    const { api, calls } = fakeApi(request('requesting-company-step-0'), {
      '/api/registration/open': () => request('requesting-company-step-1', { questionnaire: ['niciuna'] }),
    });
    renderAt('/infiintare-pfa/0', <Wizard registrationType={2} api={api} services={fakeServices()} />);
    await screen.findByText(t('steps:questionnaire.title'));
    const next = await screen.findByRole('button', { name: t('steps:questionnaire.submit') });
    expect(next.hasAttribute('disabled')).toBe(true);
    // The flow file's copy.required says why.
    const hint = await screen.findByText(t('steps:questionnaire.required'));
    expect(next.getAttribute('aria-describedby')).toBe(hint.id);

    const sells = await screen.findByRole('checkbox', { name: /Voi vinde produse/ });
    const vat = await screen.findByRole('checkbox', { name: /Voi fi plătitor de TVA/ });
    const none = await screen.findByRole('checkbox', { name: /Niciuna dintre acestea/ });
    fireEvent.click(sells);
    fireEvent.click(vat);
    await waitFor(() => expect((vat as HTMLInputElement).checked).toBe(true));
    fireEvent.click(none);
    await waitFor(() => {
      expect((none as HTMLInputElement).checked).toBe(true);
      expect((sells as HTMLInputElement).checked).toBe(false);
      expect((vat as HTMLInputElement).checked).toBe(false);
    });
    fireEvent.click(sells);
    await waitFor(() => expect((none as HTMLInputElement).checked).toBe(false));
    fireEvent.click(sells);
    fireEvent.click(none);

    await waitFor(() => expect(button(t('steps:questionnaire.submit')).hasAttribute('disabled')).toBe(false));
    expect(screen.queryByText(t('steps:questionnaire.required'))).toBeNull();
    fireEvent.click(button(t('steps:questionnaire.submit')));
    await screen.findByRole('heading', { name: t('steps:identity.title') });
    expect(calls).toEqual([{ url: '/api/registration/open', body: { current_step_identifier: 'requesting-company-step-0', reasons: ['niciuna'] } }]);
    expect(location()).toBe('/infiintare-pfa/1');
    // The identity step: "Pasul următor" waits for the verification.
    expect((await screen.findByRole('button', { name: stepText('requesting-company-step-1', 'submit') })).hasAttribute('disabled')).toBe(true);
  });

  it('questionnaire: another reason marks the request lost with the first ticked and leaves for the info page', async () => {
    const { api, calls } = fakeApi(request('requesting-company-step-0'), {
      '/api/mark-as-lost': () => ({ ...request('requesting-company-step-0'), status: 'lost' }),
    });
    renderAt('/infiintare-pfa/0', <Wizard registrationType={2} api={api} services={fakeServices()} />);
    // As a user does: tick one, see it ticked, tick the next.
    const vat = (await screen.findByRole('checkbox', { name: /Voi fi plătitor de TVA/ })) as HTMLInputElement;
    fireEvent.click(vat);
    await waitFor(() => expect(vat.checked).toBe(true));
    const sells = (await screen.findByRole('checkbox', { name: /Voi vinde produse/ })) as HTMLInputElement;
    fireEvent.click(sells);
    await waitFor(() => expect(sells.checked).toBe(true));
    await waitFor(() => expect(button(t('steps:questionnaire.submit')).hasAttribute('disabled')).toBe(false));
    fireEvent.click(button(t('steps:questionnaire.submit')));
    await waitFor(() => expect(location()).toBe('/inregistrare/chestionar/info'));
    expect(calls).toEqual([{ url: '/api/mark-as-lost', body: { reason_identifier: 'vinde-produse' } }]);
  });

  it('activities: the taxi notice, and "Nu găsesc activitatea" needs the description', async () => {
    const { api, calls } = fakeApi(request('requesting-company-step-2'), {
      '/api/registration/collect/company': (body) => request('requesting-company-step-3', { activity_id: body.activity_id, activity: 'question-mark' }),
    });
    renderAt('/infiintare-pfa/2', <Wizard registrationType={2} api={api} services={fakeServices()} />);
    fireEvent.click(await screen.findByRole('radio', { name: 'Ride-sharing / taxi' }));
    expect(await screen.findByText(textPattern(t('steps:activities.taxiNotice')))).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('button', { name: t('steps:activities.more') })).toBeTruthy());

    fireEvent.click(await screen.findByRole('radio', { name: t('steps:activities.notFound') }));
    const details = await screen.findByLabelText(textPattern(t('steps:activities.detailsLabel')));
    await waitFor(() => expect(button(stepText('requesting-company-step-2', 'submit')).hasAttribute('disabled')).toBe(true));
    fireEvent.change(details, { target: { value: 'Restaurez mobilă' } });
    await waitFor(() => expect(button(stepText('requesting-company-step-2', 'submit')).hasAttribute('disabled')).toBe(false));
    fireEvent.click(button(stepText('requesting-company-step-2', 'submit')));
    await waitFor(() => expect(location()).toBe('/infiintare-pfa/3'));
    expect(calls[0]).toEqual({
      url: '/api/registration/collect/company',
      body: { activity_id: 99, activity_details: 'Restaurez mobilă', current_step_identifier: 'requesting-company-step-2' },
    });
  });

  it('civil status: married needs a regime; not married sends null', async () => {
    const { api, calls } = fakeApi(request('requesting-company-step-4'), {
      '/api/registration/collect/civil-status': () => request('requesting-company-step-5'),
    });
    renderAt('/infiintare-pfa/4', <Wizard registrationType={2} api={api} services={fakeServices()} />);
    fireEvent.click(await screen.findByRole('button', { name: t('steps:civilStatus.married') }));
    expect(await screen.findByText(t('steps:civilStatus.regimeLabel'))).toBeTruthy();
    await waitFor(() => expect(button(stepText('requesting-company-step-4', 'submit')).hasAttribute('disabled')).toBe(true));
    fireEvent.click(await screen.findByRole('radio', { name: 'Separația de bunuri' }));
    await waitFor(() => expect(button(stepText('requesting-company-step-4', 'submit')).hasAttribute('disabled')).toBe(false));
    fireEvent.click(button(t('steps:civilStatus.notMarried')));
    await waitFor(() => expect(screen.queryByText(t('steps:civilStatus.regimeLabel'))).toBeNull());
    fireEvent.click(button(stepText('requesting-company-step-4', 'submit')));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0].body).toEqual({ is_married: false, marital_status_id: null, current_step_identifier: 'requesting-company-step-4' });
  });

  it('civil status goes as multipart, as the spec gives the call (001 §7): the text fields, null left out', async () => {
    const { api } = fakeApi(request('requesting-company-step-4'));
    const forms: { url: string; fields: Record<string, FormDataEntryValue> }[] = [];
    api.postForm = vi.fn(async (url: string, form: FormData) => {
      forms.push({ url, fields: Object.fromEntries(form.entries()) });
      return request('requesting-company-step-5') as never;
    });
    renderAt('/infiintare-pfa/4', <Wizard registrationType={2} api={api} services={fakeServices()} />);
    fireEvent.click(await screen.findByRole('button', { name: t('steps:civilStatus.married') }));
    fireEvent.click(await screen.findByRole('radio', { name: 'Separația de bunuri' }));
    await waitFor(() => expect(button(stepText('requesting-company-step-4', 'submit')).hasAttribute('disabled')).toBe(false));
    fireEvent.click(button(stepText('requesting-company-step-4', 'submit')));
    await waitFor(() => expect(forms).toHaveLength(1));
    expect(forms[0].url).toBe('/api/registration/collect/civil-status');
    expect(forms[0].fields).toEqual({ is_married: 'true', marital_status_id: expect.stringMatching(/^\d+$/), current_step_identifier: 'requesting-company-step-4' });
  });

  it('card: "Trimite dosar" is disabled until a choice; a 422 shows under the field and clears on change', async () => {
    let attempts = 0;
    const { api } = fakeApi(request('requesting-company-step-8'), {
      '/api/registration/collect/card': () => {
        attempts += 1;
        throw { status: 422, message: 'Datele trimise nu sunt valide.', fieldErrors: { ghiseu_card_requested: [t('steps:card.required')] } };
      },
    });
    renderAt('/infiintare-pfa/8', <Wizard registrationType={2} api={api} services={fakeServices()} />);
    const send = await screen.findByRole('button', { name: t('steps:card.submit') });
    expect(send.hasAttribute('disabled')).toBe(true);
    // One heading from the locale file; the schema's developer description (schemas/card.json) stays hidden.
    await waitFor(() => expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1));
    expect(screen.queryByText(/Card interest \(spec 001/)).toBeNull();
    // The offer (spec 001 §2 item 7), once: the flow file's copy `intro`, under the heading, above the choice.
    const offer = screen.getAllByText(stepText('requesting-company-step-8', 'intro'));
    expect(offer).toHaveLength(1);
    expect(offer[0].getAttribute('data-testid')).toBe('step-intro');
    expect(offer[0].compareDocumentPosition(await screen.findByRole('radio', { name: t('steps:card.yes') })) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    fireEvent.click(await screen.findByRole('radio', { name: t('steps:card.yes') }));
    await waitFor(() => expect(button(t('steps:card.submit')).hasAttribute('disabled')).toBe(false));
    fireEvent.click(button(t('steps:card.submit')));
    expect(await screen.findByText(t('steps:card.required'))).toBeTruthy();
    expect(button(t('steps:card.submit')).hasAttribute('disabled')).toBe(true);
    fireEvent.click(await screen.findByRole('radio', { name: t('steps:card.no') }));
    await waitFor(() => expect(screen.queryByText(t('steps:card.required'))).toBeNull());
    expect(attempts).toBe(1);
  });

  it('while the step is being sent, its button keeps its name beside the spinner (a screen reader still hears "Trimite dosar")', async () => {
    let answer!: (value: unknown) => void;
    const { api } = fakeApi(request('requesting-company-step-8'), {
      '/api/registration/collect/card': () => new Promise((resolve) => (answer = resolve)),
    });
    renderAt('/infiintare-pfa/8', <Wizard registrationType={2} api={api} services={fakeServices()} />);
    fireEvent.click(await screen.findByRole('radio', { name: t('steps:card.yes') }));
    await waitFor(() => expect(button(t('steps:card.submit')).hasAttribute('disabled')).toBe(false));
    fireEvent.click(button(t('steps:card.submit')));
    await waitFor(() => expect(button(t('steps:card.submit')).hasAttribute('data-loading')).toBe(true));
    expect(button(t('steps:card.submit')).hasAttribute('disabled')).toBe(true);
    answer(request('requesting-company-step-9'));
    await waitFor(() => expect(location()).toBe('/infiintare-pfa/9'));
  });

  it('a 409 (stale step) moves to the step the server is at', async () => {
    const onStale = vi.fn();
    const { api } = fakeApi(request('requesting-company-step-8'), {
      '/api/registration/collect/card': () => {
        throw { status: 409, message: 'Acest pas a fost deja trimis.', payload: request('requesting-company-step-9') };
      },
    });
    renderAt('/infiintare-pfa/8', <Wizard registrationType={2} api={api} services={fakeServices()} onStale={onStale} />);
    fireEvent.click(await screen.findByRole('radio', { name: t('steps:card.no') }));
    await waitFor(() => expect(button(t('steps:card.submit')).hasAttribute('disabled')).toBe(false));
    fireEvent.click(button(t('steps:card.submit')));
    await waitFor(() => expect(location()).toBe('/infiintare-pfa/9'));
    expect(onStale).toHaveBeenCalledOnce();
  });

  it('the questionnaire is not behind the step guard: it opens later too, and "niciuna" then goes back to where the request is', async () => {
    const onStale = vi.fn();
    const { api, calls } = fakeApi(request('requesting-company-step-4', { questionnaire: ['niciuna'] }), {
      '/api/registration/open': () => {
        throw { status: 409, message: 'Acest pas a fost deja trimis.', payload: request('requesting-company-step-4', { questionnaire: ['niciuna'] }) };
      },
    });
    renderAt('/infiintare-pfa/0', <Wizard registrationType={2} api={api} services={fakeServices()} onStale={onStale} />);
    const none = await screen.findByRole('checkbox', { name: /Niciuna dintre acestea/ });
    expect(location()).toBe('/infiintare-pfa/0');
    await waitFor(() => expect((none as HTMLInputElement).checked).toBe(true));
    await waitFor(() => expect(button(t('steps:questionnaire.submit')).hasAttribute('disabled')).toBe(false));
    fireEvent.click(button(t('steps:questionnaire.submit')));
    await waitFor(() => expect(location()).toBe('/infiintare-pfa/4'));
    expect(await screen.findByRole('heading', { name: t('steps:civilStatus.title') })).toBeTruthy();
    expect(onStale).toHaveBeenCalledOnce();
    expect(calls).toEqual([{ url: '/api/registration/open', body: { current_step_identifier: 'requesting-company-step-0', reasons: ['niciuna'] } }]);
  });

  it('previous calls the previous-step endpoint and follows the answer', async () => {
    const { api, calls } = fakeApi(request('requesting-company-step-8'), {
      '/api/registration/steps/previous': () => request('requesting-company-step-7'),
    });
    renderAt('/infiintare-pfa/8', <Wizard registrationType={2} api={api} services={fakeServices()} />);
    fireEvent.click(await screen.findByRole('button', { name: t('steps:common.previous') }));
    await waitFor(() => expect(location()).toBe('/infiintare-pfa/7'));
    expect(calls).toEqual([{ url: '/api/registration/steps/previous', body: { current_step_identifier: 'requesting-company-step-8' } }]);
    await waitFor(() => expect(within(document.body).getByText(t('steps:overview.title'))).toBeTruthy());
  });
});

describe('a step page’s prerendered shell (src/shared/shell.ts)', () => {
  afterEach(() => document.getElementById('shell')?.remove());

  /** The page as the server sends a step's address: the shell above the app's hidden root (here, the test's container). */
  function withShell(route: string): HTMLElement {
    const shell = document.createElement('div');
    shell.id = 'shell';
    shell.setAttribute('data-route', route);
    shell.textContent = `${t('steps:civilStatus.title')} (prerendered)`;
    document.body.prepend(shell);
    return shell;
  }

  it('stays while the request loads and goes once the wizard draws the step', async () => {
    let answer!: (r: ReturnType<typeof request>) => void;
    const api = { get: vi.fn(() => new Promise((resolve) => (answer = resolve))), post: vi.fn() } as never;
    const shell = withShell('/infiintare-pfa/4');
    renderAt('/infiintare-pfa/4', <Wizard registrationType={2} api={api} services={fakeServices()} />);
    expect(screen.queryByRole('heading')).toBeNull();
    expect(shell.isConnected).toBe(true);
    answer(request('requesting-company-step-4'));
    expect(await screen.findByRole('heading', { name: t('steps:civilStatus.title') })).toBeTruthy();
    expect(shell.isConnected).toBe(false);
  });

  it('goes when the request cannot be loaded (the error shows instead)', async () => {
    const api = { get: vi.fn(async () => Promise.reject(new Error('offline'))), post: vi.fn() } as never;
    const shell = withShell('/infiintare-pfa/4');
    renderAt('/infiintare-pfa/4', <Wizard registrationType={2} api={api} services={fakeServices()} />);
    await waitFor(() => expect(shell.isConnected).toBe(false));
  });
});
