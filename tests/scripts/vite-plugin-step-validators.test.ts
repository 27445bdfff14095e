import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RJSFSchema } from '@rjsf/utils';
import validator, { type ValidatorFunctions } from '@rjsf/validator-ajv8';
import { compileSchemaValidatorsCode } from '@rjsf/validator-ajv8/compileSchemaValidators';
import createPrecompiledValidator from '@rjsf/validator-ajv8/lib/createPrecompiledValidator.js';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { stepValidators, toEsModule } from '../../scripts/vite-plugin-step-validators';

/**
 * The step validators (scripts/vite-plugin-step-validators.ts): ajv's standalone code, rewritten from
 * CommonJS into an ES module by regular expressions, must validate as ajv itself does when it compiles
 * the schema at runtime (what the browser may not do under its CSP), and a change in the shape of ajv's
 * code must stop the build instead of shipping a module that fails in the browser.
 */
const schemasDir = path.resolve('schemas');
const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'step-validators-'));
afterAll(() => fs.rmSync(temp, { recursive: true, force: true }));

let modules = 0;
/** The module the plugin serves for `schema`, loaded as the browser would load its chunk. */
async function precompiled(schema: RJSFSchema): Promise<ValidatorFunctions> {
  const file = path.join(temp, `validator-${modules++}.mjs`);
  fs.writeFileSync(file, toEsModule(compileSchemaValidatorsCode(schema)));
  return ((await import(pathToFileURL(file).href)) as { default: ValidatorFunctions }).default;
}

/** What the built validator of `schema` and ajv at runtime say of some data: rjsf's errors, as the step form shows them. */
async function validators(schema: RJSFSchema) {
  const built = createPrecompiledValidator(await precompiled(schema), schema);
  return (data: unknown) => ({ built: built.validateFormData(data, schema).errors, runtime: validator.validateFormData(data, schema).errors });
}

/** Every property of `schema` set to `value`: strings where numbers belong, numbers where strings do. */
const everyProperty = (schema: RJSFSchema, value: unknown) => Object.fromEntries(Object.keys(schema.properties ?? {}).map((key) => [key, value]));

const SAMPLE: RJSFSchema = {
  $id: 'sample.json',
  type: 'object',
  required: ['name', 'code'],
  properties: {
    // Lengths in code points (ajv's ucs2length, which the rewrite inlines): '😀' is one, two UTF-16 units.
    name: { type: 'string', minLength: 2, maxLength: 3 },
    code: { type: 'string', pattern: '^[0-9]{4}$' },
    count: { type: 'integer', minimum: 1 },
    kind: { enum: ['a', 'b'] },
  },
  if: { required: ['kind'], properties: { kind: { const: 'b' } } },
  then: { required: ['count'] },
};

describe("the step validators' rewrite of ajv's code", () => {
  it('needs ucs2length for the sample and inlines it: no require is left', () => {
    const cjs = compileSchemaValidatorsCode(SAMPLE);
    expect(cjs).toMatch(/^"use strict";/);
    expect(cjs).toContain('require("ajv/dist/runtime/ucs2length")');
    const esm = toEsModule(cjs);
    expect(esm).not.toMatch(/\brequire\s*\(/);
    expect(esm).toMatch(/^const exports = \{\};\nfunction __ucs2length\(str\)/);
    expect(esm.endsWith('\nexport default exports;\n')).toBe(true);
  });

  it('validates the sample schema as ajv does at runtime, lengths counted in code points', async () => {
    const samples: unknown[] = [
      {},
      { name: '😀😀', code: '1234' },
      { name: '😀😀😀😀', code: '12345' },
      { name: 'a', code: 'abcd', count: 0 },
      { name: 'abc', code: '0000', kind: 'b' },
      { name: 'abc', code: '0000', kind: 'c', count: 1.5 },
      { name: 7, code: null },
    ];
    const bothSay = await validators(SAMPLE);
    for (const data of samples) {
      const { built, runtime } = bothSay(data);
      expect(built, JSON.stringify(data)).toEqual(runtime);
    }
    // The inlined ucs2length is used: two emoji are two characters (four UTF-16 units would be too long).
    expect(bothSay({ name: '😀😀', code: '1234' }).built).toEqual([]);
    expect(bothSay({ name: '😀😀😀😀', code: '1234' }).built.map((e) => e.name)).toEqual(['maxLength']);
    expect(bothSay({ name: 'abc', code: '0000', kind: 'b' }).built.map((e) => e.name)).toEqual(['required', 'if']);
  }, 60_000);

  it("validates every step schema of schemas/ as ajv does at runtime", async () => {
    const files = fs.readdirSync(schemasDir).filter((f) => f.endsWith('.json'));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const schema = JSON.parse(fs.readFileSync(path.join(schemasDir, file), 'utf8')) as RJSFSchema;
      const bothSay = await validators(schema);
      for (const data of [{}, everyProperty(schema, 'a😀'), everyProperty(schema, 12345), everyProperty(schema, null)]) {
        const { built, runtime } = bothSay(data);
        expect(built, `${file} ${JSON.stringify(data)}`).toEqual(runtime);
      }
    }
  }, 120_000);

  it('stops the build when ajv needs a runtime helper the rewrite does not inline', () => {
    // `uniqueItems` of objects needs ajv's deep equality (ajv/dist/runtime/equal).
    const cjs = compileSchemaValidatorsCode({ $id: 'list.json', type: 'array', uniqueItems: true, items: { type: 'object' } });
    expect(() => toEsModule(cjs)).toThrow('unsupported runtime dependency require("ajv/dist/runtime/equal")');
  });

  it("stops the build when ajv's code no longer has the shape the regular expressions expect", () => {
    const validate = 'function validate10(data) { return true; }';
    expect(() => toEsModule(`"use strict";exports["a.json"] = validate10;const f = require('ajv/dist/runtime/ucs2length').default;${validate}`)).toThrow(
      'loads a module in a way this rewrite does not know',
    );
    expect(() => toEsModule(`"use strict";module.exports = validate10;module.exports.default = validate10;${validate}`)).toThrow('no longer exports its validators');
    expect(() => toEsModule(`"use strict";export const a = validate10;${validate}`)).toThrow('no longer exports its validators');
    expect(toEsModule(`"use strict";\nexports["a.json"] = validate10;\n${validate}`)).toContain('exports["a.json"] = validate10;');
  });
});

describe('the virtual modules of the step validators', () => {
  type Hooks = {
    resolveId: (this: unknown, id: string) => string | null;
    load: (this: unknown, id: string) => string | null;
  };
  const hooks = (dir: string) => stepValidators(dir) as unknown as Hooks;

  it('resolves its two kinds of ids, and no other', () => {
    const { resolveId } = hooks(schemasDir);
    expect(resolveId.call({}, 'virtual:step-validators')).toBe('\0virtual:step-validators');
    expect(resolveId.call({}, 'virtual:step-validator/card.json.js')).toBe('\0virtual:step-validator/card.json.js');
    expect(resolveId.call({}, 'schemas/card.json')).toBeNull();
  });

  it('maps every schema file, sorted, to a lazy import of its own validator module', () => {
    const dir = fs.mkdtempSync(path.join(temp, 'schemas-'));
    fs.writeFileSync(path.join(dir, 'b.json'), JSON.stringify({ $id: 'b.json', type: 'object' }));
    fs.writeFileSync(path.join(dir, 'a.json'), JSON.stringify({ $id: 'a.json', type: 'string' }));
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'not a schema');
    expect(hooks(dir).load.call({}, '\0virtual:step-validators')).toBe(
      'export default {\n  "a.json": () => import("virtual:step-validator/a.json.js"),\n  "b.json": () => import("virtual:step-validator/b.json.js")\n};\n',
    );
  });

  it("serves a schema's validator module, watching the schema file", () => {
    const dir = fs.mkdtempSync(path.join(temp, 'schemas-'));
    const schema: RJSFSchema = { $id: 'a.json', type: 'object', properties: { x: { type: 'string', maxLength: 2 } } };
    fs.writeFileSync(path.join(dir, 'a.json'), JSON.stringify(schema));
    const context = { addWatchFile: vi.fn() };
    const code = hooks(dir).load.call(context, '\0virtual:step-validator/a.json.js');
    expect(code).toBe(toEsModule(compileSchemaValidatorsCode(schema)));
    expect(context.addWatchFile).toHaveBeenCalledWith(path.join(dir, 'a.json'));
    expect(hooks(dir).load.call(context, '/src/main.tsx')).toBeNull();
  });
});
