import { beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkFlows, repositoryInput, type CheckInput } from '../../scripts/flows-check';

const root = fileURLToPath(new URL('../..', import.meta.url));
let input: CheckInput;
beforeAll(async () => {
  input = await repositoryInput();
}, 60_000);

const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

function withNewFlow(mutate: (flow: Record<string, any>) => void): CheckInput {
  const files = clone(input.files);
  const entry = files.find((f) => f.file === 'flows/new-pfa.json')!;
  mutate(entry.flow as Record<string, any>);
  return { ...input, files };
}

describe('npm run flows:check', () => {
  it('finds no error in the flow files of the repository (pending steps are warnings)', () => {
    const problems = checkFlows(input);
    expect(problems.filter((p) => p.level === 'error')).toEqual([]);
    expect(problems.every((p) => p.level === 'error' || p.message.includes('(step pending)'))).toBe(true);
  });

  it('reports a meta-schema violation with its JSON path', () => {
    const problems = checkFlows(withNewFlow((f) => (f.steps[2].path = 'infiintare-pfa/2')));
    expect(problems).toContainEqual(expect.objectContaining({ level: 'error', file: 'flows/new-pfa.json', path: '#/steps/2/path' }));
  });

  it('refuses a button label in ui:submitButtonOptions (the engine draws the buttons: their label is copy.submit)', () => {
    const problems = checkFlows(withNewFlow((f) => (f.steps[8].uiSchema['ui:submitButtonOptions'] = { submitText: 'steps:card.submit' })));
    expect(problems).toContainEqual(expect.objectContaining({ level: 'error', file: 'flows/new-pfa.json', path: '#/steps/8/uiSchema' }));
  });

  it('refuses a step rule the server does not have, in a step and in a variant', () => {
    const problems = checkFlows(
      withNewFlow((f) => {
        f.steps[3].rule = 'documentz';
        f.variants.find((v: { id: string }) => v.id === 'icredit').steps['requesting-company-step-6'].rule = 'branch-office';
      }),
    ).filter((p) => p.level === 'error');
    expect(problems).toContainEqual(
      expect.objectContaining({ path: '#/steps/3/rule', message: expect.stringContaining('rule "documentz" is not in server/registration/step-rules.ts') }),
    );
    expect(problems.map((p) => p.message)).toContainEqual(expect.stringContaining('rule "branch-office" is not in server/registration/step-rules.ts'));
  });

  it('reports an unknown widget on a ready step, a missing locale key, a bad example and an unknown endpoint', () => {
    const problems = checkFlows(
      withNewFlow((f) => {
        f.steps[8].uiSchema.ghiseu_card_requested['ui:widget'] = 'cardChoiceTypo';
        f.steps[8].title = 'steps:card.titleTypo';
        f.steps[8].examples = [{ ghiseu_card_requested: 5 }];
        f.steps[8].submit.endpoint = '/api/registration/collect/cardd';
      }),
    ).filter((p) => p.level === 'error');
    const at = (path: string) => problems.filter((p) => p.path === path).map((p) => p.message);
    expect(at('#/steps/8/uiSchema/ghiseu_card_requested/ui:widget')[0]).toContain('ui:widget "cardChoiceTypo" is not in widgets/registry.ts');
    expect(at('#/steps/8/title')).toEqual(expect.arrayContaining([expect.stringContaining('locale key steps:card.titleTypo is missing in locales/ro')]));
    expect(at('#/steps/8/examples/0/ghiseu_card_requested')[0]).toContain('example is not valid against card.json');
    expect(at('#/steps/8/submit/endpoint')[0]).toContain('POST /api/registration/collect/cardd is not a route of the server');
  });

  it('refuses a CAEN code that is not a CAEN Rev.3 class: a partner\'s locked code, an activity\'s default', () => {
    const problems = checkFlows({
      ...withNewFlow((f) => {
        // 8291 and 6619 exist in Rev.3; 6201 was Rev.2 only (Rev.3: 6210).
        f.variants.find((v: { id: string }) => v.id === 'icredit').steps['requesting-company-step-7'].uiSchema['ui:options'].lockedCodes = ['8291', '6201'];
      }),
      activityCaen: [...input.activityCaen, { code: 'web-design-vechi', caen: '6201' }],
    }).filter((p) => p.level === 'error');
    expect(problems).toContainEqual(
      expect.objectContaining({ file: 'flows/new-pfa.json', path: expect.stringContaining('/uiSchema/ui:options/lockedCodes/1'), message: expect.stringContaining('"6201" is not a CAEN Rev.3 class') }),
    );
    expect(problems).toContainEqual(
      expect.objectContaining({ file: 'server/db/seed/activities.json', path: `#/activities/${input.activityCaen.length}/caen`, message: expect.stringContaining('6201 is not a CAEN Rev.3 class') }),
    );
    expect(problems.some((p) => p.message.includes('"8291"'))).toBe(false);
  });

  it('reports variants that patch unknown steps, steps no request reaches and duplicate ids', () => {
    const messages = (mutate: (f: Record<string, any>) => void) => checkFlows(withNewFlow(mutate)).map((p) => `${p.path} ${p.message}`);
    expect(messages((f) => (f.variants[0].steps['requesting-company-step-42'] = { title: 'steps:card.title' }))).toContain(
      '#/variants/0/steps/requesting-company-step-42 variant unaffiliated patches unknown step requesting-company-step-42',
    );
    expect(messages((f) => (f.steps[4].when = { partner: 'nu-exista' }))).toContain(
      '#/steps/4 step requesting-company-step-4 is reached by no partner or activity',
    );
    expect(messages((f) => (f.steps[5].id = 'requesting-company-step-4'))).toContain('#/steps/5/id step id requesting-company-step-4 is used twice');
  });

  it('reports the payment parts: an unknown paidRoute, a follow-up call that is no route, error texts without `.unknown`', () => {
    const problems = checkFlows(
      withNewFlow((f) => {
        f.paidRoute = 'requesting-company-statuss';
        f.steps[9].submit.then.endpoint = '/api/stripe/redirectt';
        f.steps[9].copy.redirectErrors = 'steps:pricing.errorz';
      }),
    ).filter((p) => p.level === 'error');
    const at = (path: string) => problems.filter((p) => p.path === path).map((p) => p.message);
    expect(at('#/paidRoute')).toEqual(['paidRoute requesting-company-statuss is not a named route (src/core/routes.ts)']);
    expect(at('#/steps/9/submit/then/endpoint')[0]).toContain('POST /api/stripe/redirectt is not a route of the server');
    expect(at('#/steps/9/copy/redirectErrors')[0]).toContain('locale key steps:pricing.errorz.unknown is missing in locales/ro');
  });
});

describe('widgets/names.json', () => {
  it('names exactly the widgets and fields of widgets/registry.ts (the server checks flow files against it without importing widgets)', async () => {
    const names = (await import('../../widgets/names.json')).default;
    const { widgets, fields } = await import('../../widgets/registry');
    expect(Object.keys(names.widgets).sort()).toEqual(Object.keys(widgets).sort());
    expect(Object.keys(names.fields).sort()).toEqual(Object.keys(fields).sort());
  });

  it('gives every widgets/*/*Widget.tsx and *Field.tsx a name, each file once (the registry loads them by these files)', async () => {
    const names = (await import('../../widgets/names.json')).default;
    const files = [...Object.values(names.widgets), ...Object.values(names.fields)];
    const onDisk = fs
      .readdirSync(path.join(root, 'widgets'), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .flatMap((d) => fs.readdirSync(path.join(root, 'widgets', d.name)).filter((f) => /(Widget|Field)\.tsx$/.test(f)).map((f) => `${d.name}/${f}`));
    expect([...files].sort()).toEqual(onDisk.sort());
  });
});
