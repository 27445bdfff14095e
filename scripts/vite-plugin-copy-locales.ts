import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

const root = fileURLToPath(new URL('..', import.meta.url));
const LOCALE = /(?:^|[\\/])locales[\\/]([\w-]+)[\\/]([\w-]+)\.json$/;

/**
 * Another copy of the texts in place of the repository's, for the test that proves no test hard-codes
 * a step's copy (tests/scripts/copy-rewrite.test.ts): with `COPY_LOCALES_DIR` set, an import of
 * `locales/<lng>/<ns>.json` (the app's, src/shared/i18n.ts; the tests', tests/engine/render.tsx)
 * resolves to `<COPY_LOCALES_DIR>/<lng>/<ns>.json` when that file exists; other namespaces stay the
 * repository's. Tests and the dev server only (vitest and `vite` serve): never a build, whatever its
 * mode, so a stray variable cannot ship other texts. tests/copy.ts reads files the same way.
 */
export function copyLocales(dir = process.env.COPY_LOCALES_DIR): Plugin {
  const copies = dir ? path.resolve(dir) : null;
  return {
    name: 'copy-locales',
    enforce: 'pre',
    apply: (_config, env) => copies !== null && env.command === 'serve' && env.mode !== 'production',
    resolveId(source, importer) {
      if (!copies || !importer || !source.endsWith('.json')) return null;
      const file = path.resolve(path.dirname(importer.replace(/\?.*$/, '')), source);
      const match = LOCALE.exec(file);
      if (!match || path.dirname(path.dirname(file)) !== path.join(root, 'locales')) return null;
      const copy = path.join(copies, match[1], `${match[2]}.json`);
      return fs.existsSync(copy) ? copy : null;
    },
  };
}
