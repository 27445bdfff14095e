import fs from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';
import { compileSchemaValidatorsCode } from '@rjsf/validator-ajv8/compileSchemaValidators';

const MAP_ID = 'virtual:step-validators';
const ONE_PREFIX = 'virtual:step-validator/';

/** ajv's runtime helper for string lengths in code points (ajv/dist/runtime/ucs2length). */
const UCS2LENGTH = `function __ucs2length(str) {
  let length = 0, pos = 0, value;
  while (pos < str.length) {
    length++;
    value = str.charCodeAt(pos++);
    if (value >= 0xd800 && value <= 0xdbff && pos < str.length) {
      value = str.charCodeAt(pos);
      if ((value & 0xfc00) === 0xdc00) pos++;
    }
  }
  return length;
}`;

/**
 * ajv's standalone code is CommonJS with export names that are not identifiers ("card.json",
 * schema hashes), so ESM output is impossible: wrap it in a module that exports the object. The
 * rewrite is textual and assumes the shape of ajv 8's output for several schemas (`exports["id"] = …`
 * or `exports.id = …`; `require("…")` only for ucs2length, which the module inlines): code of another
 * shape (another ajv, a runtime helper such as `equal`, a format) fails the build here rather than in
 * the browser (tests/scripts/vite-plugin-step-validators.test.ts compares the result with ajv's own
 * validation).
 */
export function toEsModule(cjs: string): string {
  const requires = cjs.match(/require\("[^"]+"\)/g) ?? [];
  const unknown = requires.filter((r) => r !== 'require("ajv/dist/runtime/ucs2length")');
  if (unknown.length) throw new Error(`step-validators: unsupported runtime dependency ${unknown[0]}`);
  const body = cjs.replace(/^"use strict";/, '').replace(/require\("ajv\/dist\/runtime\/ucs2length"\)/g, '{ default: __ucs2length }');
  if (/\brequire\s*\(/.test(body)) throw new Error('step-validators: ajv\'s code loads a module in a way this rewrite does not know (update toEsModule)');
  if (/\bmodule\.exports\b/.test(body) || !/\bexports(?:\[|\.[A-Za-z_$])/.test(body)) {
    throw new Error('step-validators: ajv\'s code no longer exports its validators as `exports["id"] = …` (update toEsModule)');
  }
  return `const exports = {};\n${UCS2LENGTH}\n${body}\nexport default exports;\n`;
}

/**
 * Precompiles every step schema of schemas/ into standalone ajv validator code at build time
 * (DESIGN.md: the app runs under a Content-Security-Policy without 'unsafe-eval', so nothing may
 * compile a schema in the browser). `import loaders from 'virtual:step-validators'` gives
 * `{ "card.json": () => import(<that schema's validator module>) }`, one lazy chunk per schema.
 */
export function stepValidators(schemasDir = path.resolve('schemas')): Plugin {
  const files = () => fs.readdirSync(schemasDir).filter((f) => f.endsWith('.json')).sort();
  return {
    name: 'step-validators',
    resolveId(id) {
      if (id === MAP_ID || id.startsWith(ONE_PREFIX)) return `\0${id}`;
      return null;
    },
    load(id) {
      if (id === `\0${MAP_ID}`) {
        // The module id must not end in .json, or Vite's JSON plugin would parse the generated code.
        const entries = files().map((f) => `  ${JSON.stringify(f)}: () => import(${JSON.stringify(`${ONE_PREFIX}${f}.js`)})`);
        return `export default {\n${entries.join(',\n')}\n};\n`;
      }
      if (id.startsWith(`\0${ONE_PREFIX}`)) {
        const file = id.slice(ONE_PREFIX.length + 1).replace(/\.js$/, '');
        const full = path.join(schemasDir, file);
        this.addWatchFile(full);
        const schema = JSON.parse(fs.readFileSync(full, 'utf8'));
        return toEsModule(compileSchemaValidatorsCode(schema));
      }
      return null;
    },
  };
}
