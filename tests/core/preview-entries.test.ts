import { describe, expect, it } from 'vitest';
import newPfa from '../../flows/new-pfa.json';
import existingPfa from '../../flows/existing-pfa.json';
import { previewEntries, type Flow } from '@/core/flow';

const PARTNERS = [
  { slug: 'neafiliat', is_unaffiliated: true },
  { slug: 'icredit', is_unaffiliated: false },
  { slug: 'curier', is_unaffiliated: false },
];

describe('previewEntries (the staff preview list)', () => {
  const entries = previewEntries(newPfa as unknown as Flow, PARTNERS);

  it('lists every step of the file for every partner, in file order', () => {
    const ids = (newPfa as unknown as Flow).steps.map((s) => s.id);
    expect([...new Set(entries.map((e) => e.stepId))]).toEqual(ids);
    for (const id of ids) for (const p of PARTNERS) expect(entries.some((e) => e.stepId === id && e.partner === p.slug && e.activity === null && e.state === 'start')).toBe(true);
  });

  it('adds an activity or a state only where a variant makes the step differ', () => {
    const documents = entries.filter((e) => e.stepId === 'requesting-company-step-3' && e.partner === 'neafiliat');
    expect(documents.map((e) => e.activity)).toEqual([null, 'curier', 'taxi', 'consultant-credite', 'psihoterapeut', 'medicina']);
    expect(entries.filter((e) => e.stepId === 'requesting-company-step-8' && e.partner === 'neafiliat')).toHaveLength(1);
    const sent = entries.find((e) => e.stepId === 'requesting-company-step-7' && e.state === 'form' && e.activity === null && e.partner === 'curier');
    expect(sent?.variants).toEqual(['dossier-sent']);
    expect(sent?.context.formData).toEqual({ submitted_at: 'x' });
  });

  it('resolves each entry with its variants (the credit partner and the credit consultant together)', () => {
    const entry = entries.find((e) => e.stepId === 'requesting-company-step-3' && e.partner === 'icredit' && e.activity === 'consultant-credite');
    expect(entry?.variants).toEqual(['icredit', 'activity-credit-consultant', 'credit-consultant-credit-partner']);
    expect(entry?.context).toMatchObject({ partner: 'icredit', unaffiliated: false, activity: 'consultant-credite', formData: { activity: 'consultant-credite' } });
  });

  it('leaves out a step a state drops (the existing PFA\'s paid pricing step is behind the applicant)', () => {
    const existing = previewEntries(existingPfa as unknown as Flow, PARTNERS);
    expect(existing.filter((e) => e.stepId === 'existing-company-step-4').map((e) => e.state)).toEqual(['start', 'start', 'start']);
  });
});
