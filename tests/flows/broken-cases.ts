/**
 * The kinds of mistakes check-broken.test.ts makes in a copy of the real flow files, each with the
 * problems that must be reported: its file, its JSON pointer and its message.
 */
import { expect } from 'vitest';
import { EXISTING, NEW, misspellUiSchema, p6, type Case } from './broken-copy';

export const cases: Case[] = [
  {
    name: 'a misspelled uiSchema in a variant patch',
    make(copy) {
      const v = misspellUiSchema(copy);
      return [{ file: NEW, path: `#/variants/${v}/steps/${p6}/uischema`, message: 'unknown property "uischema" (did you mean "uiSchema"?)' }];
    },
  },
  {
    name: '"guarded": "no" in a variant patch',
    make(copy) {
      let v = 0;
      copy.flow('new-pfa.json', (flow, at) => {
        v = at.variant('icredit');
        at.patch('icredit', p6).guarded = 'no';
      });
      return [{ file: NEW, path: `#/variants/${v}/steps/${p6}/guarded`, message: 'must be boolean or null' }];
    },
  },
  {
    name: '"title": 42 in a variant patch (no crash)',
    make(copy) {
      let v = 0;
      copy.flow('new-pfa.json', (flow, at) => {
        v = at.variant('icredit');
        at.patch('icredit', p6).title = 42;
      });
      return [{ file: NEW, path: `#/variants/${v}/steps/${p6}/title`, message: 'must be string or null' }];
    },
  },
  {
    name: '"title": 42 in a base step',
    make(copy) {
      let i = 0;
      copy.flow('new-pfa.json', (flow, at) => {
        i = at.step('requesting-company-step-8');
        flow.steps[i].title = 42;
      });
      return [{ file: NEW, path: `#/steps/${i}/title`, message: 'must be string' }];
    },
  },
  {
    name: 'a variant that removes a required property (null)',
    make(copy) {
      let v = 0;
      copy.flow('new-pfa.json', (flow, at) => {
        v = at.variant('icredit');
        at.patch('icredit', p6).title = null;
      });
      return [{ file: NEW, path: `#/variants/${v}/steps/${p6}/title`, message: 'must have required property "title"' }];
    },
  },
  {
    name: 'an unknown partner slug in a variant (an error, not a warning)',
    make(copy) {
      let v = 0;
      copy.flow('new-pfa.json', (flow, at) => {
        v = at.variant('icredit');
        flow.variants[v].when = { partner: 'icreditt' };
      });
      return [{ file: NEW, path: `#/variants/${v}/when/partner`, message: /^partner "icreditt" is not a partner of server\/db\/seed\/partners\.json/, level: 'error' }];
    },
    also(problems) {
      expect(problems.filter((p) => p.message.includes('applies to no known partner'))).toEqual([]);
    },
  },
  {
    name: 'an unknown activity slug in a variant',
    make(copy) {
      let v = 0;
      copy.flow('new-pfa.json', (flow, at) => {
        v = at.variant('activity-taxi');
        flow.variants[v].when = { activity: 'taxii' };
      });
      return [{ file: NEW, path: `#/variants/${v}/when/activity`, message: 'activity "taxii" is not an activity of server/db/seed/activities.json', level: 'error' }];
    },
  },
  {
    name: "an unknown activity inside a step's nested condition",
    make(copy) {
      let i = 0;
      copy.flow('new-pfa.json', (flow, at) => {
        i = at.step('requesting-company-step-4');
        flow.steps[i].when = { any: [{ partner: 'icredit' }, { activity: ['taxi', 'taxi-vechi'] }] };
      });
      return [{ file: NEW, path: `#/steps/${i}/when/any/1/activity/1`, message: 'activity "taxi-vechi" is not an activity of server/db/seed/activities.json' }];
    },
  },
  {
    name: 'a misspelled condition key (said once, with the key it looks like)',
    make(copy) {
      let i = 0;
      copy.flow('new-pfa.json', (flow, at) => {
        i = at.step('requesting-company-step-4');
        flow.steps[i].when = { partnr: 'icredit' };
      });
      return [{ file: NEW, path: `#/steps/${i}/when`, message: /^must be \{"all": …\} or .* \(it has "partnr"; did you mean "partner"\?\)$/ }];
    },
    also(problems) {
      expect(problems.filter((p) => p.path.endsWith('/when'))).toHaveLength(1);
    },
  },
  {
    name: 'a JSON syntax error (line and column)',
    make(copy) {
      const text = copy.text(EXISTING, (t) => t.replace(/("registrationType": \d+),/, '$1'));
      const lines = text.split('\n');
      const line = lines.findIndex((l) => l.includes('"basePath"'));
      return [{ file: EXISTING, path: '#', message: `not valid JSON (line ${line + 1}, column ${lines[line].indexOf('"basePath"') + 1}): Expected ',' or '}' after property value` }];
    },
    also(problems) {
      // The other file is still checked, and nothing else is said about the broken one.
      expect(problems.filter((p) => p.file === EXISTING)).toHaveLength(1);
    },
  },
  {
    name: 'a step schema file that is not JSON (named)',
    make(copy) {
      copy.text('schemas/card.json', () => '{\n  "type": "object",\n  "properties": {\n}');
      return [{ file: 'schemas/card.json', path: '#', message: /^not valid JSON \(line 4, column 2\): / }];
    },
    also(problems) {
      // The steps naming it say nothing more.
      expect(problems.filter((p) => p.message.includes('card.json') && p.file !== 'schemas/card.json')).toEqual([]);
    },
  },
  {
    name: 'a step schema that is no valid JSON Schema (named, with the place in it)',
    make(copy) {
      copy.json('schemas/card.json', (s) => (s.properties.ghiseu_card_requested.type = 'intger'));
      return [{ file: 'schemas/card.json', path: '#/properties/ghiseu_card_requested/type', message: /^not a valid JSON Schema: must be one of "array", "boolean", "integer"/ }];
    },
  },
  {
    name: "a step schema whose $id is not its file's name",
    make(copy) {
      copy.json('schemas/card.json', (s) => (s.$id = 'cards.json'));
      return [{ file: 'schemas/card.json', path: '#/$id', message: '$id must be "card.json" (the file\'s name), not "cards.json"' }];
    },
  },
  {
    name: 'a step that names a missing schema file',
    make(copy) {
      let i = 0;
      copy.flow('new-pfa.json', (flow, at) => {
        i = at.step('requesting-company-step-8');
        flow.steps[i].schema = 'cardd.json';
      });
      return [{ file: NEW, path: `#/steps/${i}/schema`, message: 'schema cardd.json is not in schemas/' }];
    },
  },
  {
    name: 'a submit.payload pointer that names no schema property',
    make(copy) {
      let i = 0;
      copy.flow('new-pfa.json', (flow, at) => {
        i = at.step('requesting-company-step-8');
        flow.steps[i].submit.payload.ghiseu_card_requested = '/ghiseu_card';
      });
      return [{ file: NEW, path: `#/steps/${i}/submit/payload/ghiseu_card_requested`, message: 'pointer "/ghiseu_card" names no property of card.json (the field would be sent empty)' }];
    },
  },
  {
    name: "a branch's payload pointer into an array item that is no property",
    make(copy) {
      let i = 0;
      copy.flow('new-pfa.json', (flow, at) => {
        i = at.step('requesting-company-step-0');
        flow.steps[i].submit.branches[0].payload.reason_identifier = '/reason/0';
      });
      return [{ file: NEW, path: `#/steps/${i}/submit/branches/0/payload/reason_identifier`, message: 'pointer "/reason/0" names no property of questionnaire.json (the field would be sent empty)' }];
    },
  },
  {
    name: 'a uiSchema key that names no schema property',
    make(copy) {
      let i = 0;
      copy.flow('new-pfa.json', (flow, at) => {
        i = at.step('requesting-company-step-8');
        const ui = flow.steps[i].uiSchema;
        ui.ghiseu_card_requestd = ui.ghiseu_card_requested;
        delete ui.ghiseu_card_requested;
      });
      return [{ file: NEW, path: `#/steps/${i}/uiSchema/ghiseu_card_requestd`, message: 'uiSchema key "ghiseu_card_requestd" names no property of card.json (its widget would not show)' }];
    },
  },
  {
    name: 'store keeping a field the payload does not send',
    make(copy) {
      let i = 0;
      copy.flow('new-pfa.json', (flow, at) => {
        i = at.step('requesting-company-step-8');
        flow.steps[i].submit.store.ghiseu_card_requested = 'ghiseu_card';
      });
      return [{ file: NEW, path: `#/steps/${i}/submit/store/ghiseu_card_requested`, message: 'store keeps "ghiseu_card", which submit.payload does not send' }];
    },
  },
  {
    name: 'two mistakes in one file, a structural one first: both reported',
    make(copy) {
      let [a, b] = [0, 0];
      copy.flow('existing-pfa.json', (flow, at) => {
        a = at.step('existing-company-step-2');
        b = at.step('existing-company-step-7');
        flow.steps[a].path = 'inregistrare/2';
        flow.steps[b].title = 'steps:card.titluNou';
      });
      return [
        { file: EXISTING, path: `#/steps/${a}/path`, message: /^must match pattern / },
        { file: EXISTING, path: `#/steps/${b}/title`, message: 'locale key steps:card.titluNou is missing in locales/ro' },
        { file: EXISTING, path: `#/steps/${b}/title`, message: 'locale key steps:card.titluNou is missing in locales/en' },
      ];
    },
  },
  {
    name: 'a mistake in a base step that variants patch: at the base step, not tagged with a variant',
    make(copy) {
      let i = 0;
      copy.flow('new-pfa.json', (flow, at) => {
        i = at.step('requesting-company-step-9');
        flow.steps[i].copy.submit = 'steps:pricing.submitt';
      });
      return [{ file: NEW, path: `#/steps/${i}/copy/submit`, message: 'locale key steps:pricing.submitt is missing in locales/ro' }];
    },
    also(problems) {
      expect(problems.filter((p) => p.message.includes('(with '))).toEqual([]);
    },
  },
  {
    name: 'a mistake in a variant patch: at #/variants/N/…, not at the base step',
    make(copy) {
      let v = 0;
      copy.flow('new-pfa.json', (flow, at) => {
        v = at.variant('icredit');
        at.patch('icredit', p6).title = 'steps:mailingAddress.titleIcreditt';
      });
      return [{ file: NEW, path: `#/variants/${v}/steps/${p6}/title`, message: 'locale key steps:mailingAddress.titleIcreditt is missing in locales/ro' }];
    },
    also(problems) {
      expect(problems.filter((p) => p.path.startsWith('#/steps/'))).toEqual([]);
    },
  },
  {
    name: 'a mistake in a variant that applies to no request is still found',
    make(copy) {
      let v = 0;
      copy.flow('new-pfa.json', (flow, at) => {
        v = at.variant('icredit');
        flow.variants[v].when = { partner: 'nu-exista' };
        at.patch('icredit', p6).uiSchema['ui:field'] = 'icreditOfice';
      });
      return [
        { file: NEW, path: `#/variants/${v}/when/partner`, message: /^partner "nu-exista" is not a partner/ },
        { file: NEW, path: `#/variants/${v}/steps/${p6}/uiSchema/ui:field`, message: 'ui:field "icreditOfice" is not in widgets/registry.ts' },
      ];
    },
  },
  {
    name: 'a base-step mistake that only a variant brings out says which variant',
    make(copy) {
      let [i, v] = [0, 0];
      copy.flow('new-pfa.json', (flow, at) => {
        i = at.step('requesting-company-step-8');
        v = at.variant('courier-partner');
        flow.variants[v].steps['requesting-company-step-8'] = { schema: 'pricing.json' };
      });
      return [
        { file: NEW, path: `#/steps/${i}/examples/0`, message: /^example is not valid against pricing\.json: .* \(with courier-partner\)$/ },
        { file: NEW, path: `#/steps/${i}/uiSchema/ghiseu_card_requested`, message: 'uiSchema key "ghiseu_card_requested" names no property of pricing.json (its widget would not show) (with courier-partner)' },
      ];
    },
  },
  {
    name: 'an example in a variant that its step schema refuses',
    make(copy) {
      let v = 0;
      copy.flow('new-pfa.json', (flow, at) => {
        v = at.variant('icredit');
        at.patch('icredit', 'requesting-company-step-3').examples = [{ send_diploma_later: 'poate' }];
      });
      return [{ file: NEW, path: `#/variants/${v}/steps/requesting-company-step-3/examples/0/send_diploma_later`, message: /^example is not valid against documents\.json: must be one of true, false, "true", "false"$/ }];
    },
  },
  {
    name: 'a CAEN code outside CAEN Rev.3 in a variant',
    make(copy) {
      let v = 0;
      copy.flow('new-pfa.json', (flow, at) => {
        v = at.variant('icredit');
        at.patch('icredit', 'requesting-company-step-7').uiSchema['ui:options'].lockedCodes = ['8291', '6201'];
      });
      return [{ file: NEW, path: `#/variants/${v}/steps/requesting-company-step-7/uiSchema/ui:options/lockedCodes/1`, message: '"6201" is not a CAEN Rev.3 class (server/db/seed/caen-rev3.json)' }];
    },
    also(problems) {
      expect(problems.some((p) => p.message.includes('"8291"'))).toBe(false);
    },
  },
  {
    name: 'a duplicated step id',
    make(copy) {
      let i = 0;
      copy.flow('new-pfa.json', (flow, at) => {
        i = at.step('requesting-company-step-5');
        flow.steps[i].id = 'requesting-company-step-4';
      });
      return [{ file: NEW, path: `#/steps/${i}/id`, message: 'step id requesting-company-step-4 is used twice' }];
    },
  },
  {
    name: 'a duplicated variant id, and a patch that changes the step id',
    make(copy) {
      let [a, b] = [0, 0];
      copy.flow('new-pfa.json', (flow, at) => {
        a = at.variant('activity-taxi');
        b = at.variant('activity-courier');
        flow.variants[b].id = 'activity-taxi';
        flow.variants[a].steps['requesting-company-step-3'].id = 'requesting-company-step-33';
      });
      return [
        // Reported at the second of the two.
        { file: NEW, path: `#/variants/${Math.max(a, b)}/id`, message: 'variant id activity-taxi is used twice' },
        { file: NEW, path: `#/variants/${a}/steps/requesting-company-step-3/id`, message: "a variant cannot change a step's id (the step is requesting-company-step-3)" },
      ];
    },
  },
  {
    name: 'a variant that patches an unknown step',
    make(copy) {
      let v = 0;
      copy.flow('existing-pfa.json', (flow, at) => {
        v = at.variant('icredit');
        flow.variants[v].steps['existing-company-step-44'] = { title: 'steps:card.title' };
      });
      return [{ file: EXISTING, path: `#/variants/${v}/steps/existing-company-step-44`, message: 'variant icredit patches unknown step existing-company-step-44' }];
    },
  },
  {
    name: 'a flow file that is no object at all',
    make(copy) {
      copy.text(EXISTING, () => '[]');
      return [{ file: EXISTING, path: '#', message: 'must be object' }];
    },
  },
  {
    name: 'an endpoint in a variant that is no route of the server',
    make(copy) {
      let v = 0;
      copy.flow('new-pfa.json', (flow, at) => {
        v = at.variant('dossier-sent');
        flow.variants[v].steps['requesting-company-step-7'].submit.branches[0].endpoint = '/api/registration/steps/nextt';
      });
      return [{ file: NEW, path: `#/variants/${v}/steps/requesting-company-step-7/submit/branches/0/endpoint`, message: 'POST /api/registration/steps/nextt is not a route of the server' }];
    },
  },
];
