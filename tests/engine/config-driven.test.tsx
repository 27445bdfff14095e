/**
 * Product staff change copy, options, order and partner variants by editing JSON: the same Wizard,
 * given an edited copy of flows/new-pfa.json or an edited locale entry, shows the change with no
 * TypeScript touched.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import newPfa from '../../flows/new-pfa.json';
import type { Flow } from '@/core/flow';
import { Wizard } from '@/engine/Wizard';
import { fakeApi, fakeServices, renderAt, request, stepText, t } from './render';
import { textPattern } from '../copy';

afterEach(cleanup);

/** A deep copy of the bundled flow file, edited the way product staff would edit the JSON. */
function editedFlow(edit: (flow: Record<string, any>) => void): Flow {
  const copy = structuredClone(newPfa) as Record<string, any>;
  edit(copy);
  return copy as unknown as Flow;
}

const step = (flow: Record<string, any>, id: string) => flow.steps.find((s: { id: string }) => s.id === id);

describe('editing JSON changes the page', () => {
  it('a ui:options value (primaryCount) and a notice mapping of the activities step', async () => {
    const flow = editedFlow((f) => {
      const activities = step(f, 'requesting-company-step-2');
      activities.uiSchema['ui:options'].primaryCount = 1;
      activities.uiSchema['ui:options'].notices = { 'consultanta-it': 'steps:activities.taxiNotice' };
    });
    const { api } = fakeApi(request('requesting-company-step-2'));
    renderAt('/infiintare-pfa/2', <Wizard registrationType={2} flow={flow} api={api} services={fakeServices()} />);
    const it = await screen.findByRole('radio', { name: 'Consultanță IT și programare' });
    // Only one primary activity is listed; the others wait behind "Afișează mai multe activități".
    expect(screen.queryByRole('radio', { name: 'Ride-sharing / taxi' })).toBeNull();
    await waitFor(() => expect(screen.getByRole('button', { name: t('steps:activities.more') })).toBeTruthy());
    fireEvent.click(it);
    expect(await screen.findByText(textPattern(t('steps:activities.taxiNotice')))).toBeTruthy();
  });

  it('a copy key, and its text in the locale file', async () => {
    const flow = editedFlow((f) => {
      step(f, 'requesting-company-step-4').title = 'steps:questionnaire.title';
    });
    const { api } = fakeApi(request('requesting-company-step-4'));
    const { unmount } = renderAt('/infiintare-pfa/4', <Wizard registrationType={2} flow={flow} api={api} services={fakeServices()} />);
    expect(await screen.findByRole('heading', { level: 1, name: t('steps:questionnaire.title') })).toBeTruthy();
    unmount();

    // The same step with the bundled flow, but the locale entry edited.
    const edited = (key: string, vars?: Record<string, unknown>) => (key === 'steps:civilStatus.title' ? 'Care este starea ta civilă?' : t(key, vars));
    renderAt('/infiintare-pfa/4', <Wizard registrationType={2} api={api} services={fakeServices({ t: edited })} />);
    expect(await screen.findByRole('heading', { level: 1, name: 'Care este starea ta civilă?' })).toBeTruthy();
  });

  it('a partner variant added in the file applies to that partner only', async () => {
    const flow = editedFlow((f) => {
      f.variants.push({
        id: 'partener-nou',
        description: 'A new partner whose applicants see the card step under another title, with another offer.',
        when: { partner: 'partener-nou' },
        steps: { 'requesting-company-step-8': { title: 'steps:questionnaire.title', copy: { intro: 'steps:identity.intro' } } },
      });
    });
    const partner = { slug: 'partener-nou', is_unaffiliated: false, name: 'Partener nou' };
    const { api } = fakeApi(request('requesting-company-step-8', {}, partner), {}, flow);
    const { unmount } = renderAt('/infiintare-pfa/8', <Wizard registrationType={2} flow={flow} api={api} services={fakeServices()} />);
    expect(await screen.findByRole('heading', { level: 1, name: t('steps:questionnaire.title') })).toBeTruthy();
    // Their guidance too (the step's prerendered shell keeps the base one: tests/scripts/prerender.test.ts).
    expect((await screen.findByTestId('step-intro')).textContent).toBe(t('steps:identity.intro'));
    unmount();

    const { api: other } = fakeApi(request('requesting-company-step-8'));
    renderAt('/infiintare-pfa/8', <Wizard registrationType={2} flow={flow} api={other} services={fakeServices()} />);
    expect(await screen.findByRole('button', { name: stepText('requesting-company-step-8', 'submit') })).toBeTruthy();
    expect(screen.queryByRole('heading', { level: 1, name: t('steps:questionnaire.title') })).toBeNull();
    expect(screen.getByRole('heading', { level: 1, name: stepText('requesting-company-step-8', 'title') })).toBeTruthy();
    expect(screen.getByTestId('step-intro').textContent).toBe(stepText('requesting-company-step-8', 'intro'));
  });
});
