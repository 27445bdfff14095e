import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * Other flow files in place of flows/, for the flow walker (`npm run test:flow -- <file anywhere>`):
 * with `E2E_FLOWS_DIR` set, an import of `flows/<name>.json` (src/engine/flows.ts, the flow layout)
 * resolves to `<E2E_FLOWS_DIR>/<name>.json` when that file exists, so the browser runs the same files
 * as the e2e server (tests/e2e/serve.ts reads the folder too). Development and tests only: a build in
 * mode `production` (plain `vite build`) with the variable set stops with an error, so a stray variable
 * cannot ship other flows; build with `--mode test`. The prerender's SSR build (scripts/prerender.ts,
 * started by that build) follows it.
 */
export function flowsDir(dir = process.env.E2E_FLOWS_DIR): Plugin {
  const copies = dir ? path.resolve(dir) : null;
  const flows = path.join(root, 'flows');
  return {
    name: 'e2e-flows-dir',
    enforce: 'pre',
    apply: () => copies !== null,
    config(_config, env) {
      if (env.command === 'build' && env.mode === 'production' && !env.isSsrBuild) {
        throw new Error(`E2E_FLOWS_DIR is set (${copies}): other flow files are for tests only; build them with \`vite build --mode test\`, or unset it`);
      }
      console.log(`[flows] the build bundles the flow files of ${copies} (E2E_FLOWS_DIR) instead of flows/`);
    },
    resolveId(source, importer) {
      if (!copies || !importer || !source.endsWith('.json')) return null;
      const file = path.resolve(path.dirname(importer.replace(/\?.*$/, '')), source);
      if (path.dirname(file) !== flows) return null;
      const copy = path.join(copies, path.basename(file));
      return fs.existsSync(copy) ? copy : null;
    },
  };
}
