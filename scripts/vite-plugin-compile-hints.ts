import type { Plugin } from 'vite';

/** V8's explicit compile hint (Chromium 136+): every function of the file is compiled when the file arrives. */
export const COMPILE_HINT = '//# allFunctionsCalledOnLoad';

/**
 * Puts V8's explicit compile hint at the top of every chunk of a build whose functions nearly all run
 * as the page loads (issue 14, TBT): the guest pages' entries and their shared `start`. V8 otherwise
 * compiles a function only when first called, on the main thread, in the middle of the page's module
 * evaluation and first render; with the hint it compiles the file on a background thread while it is
 * still arriving (https://v8.dev/blog/explicit-compile-hints). Measured on a guest build,
 * `npm run bench:web -- --runs 3` twice each way, alternating: TBT /login 151–176 → 96–98 ms,
 * /register 230–238 → 154–179 ms, /register/account 294–339 → 208–234 ms. Not for the app's chunks:
 * most of `framework` never runs on a given page, and the same hint on it, `app`, `main` and
 * `StepForm` made the steps' TBT worse (175 → 202–220 ms on /infiintare-pfa/3).
 * Other browsers read the line as a comment. Added once the chunks are final (their names' hashes do
 * not cover it: it is the same line in every build); each source map gets one empty line in front.
 */
export function compileHints(): Plugin {
  return {
    name: 'ghiseu:compile-hints',
    apply: 'build',
    generateBundle(_options, bundle) {
      for (const file of Object.values(bundle)) {
        if (file.type !== 'chunk' || file.code.startsWith(COMPILE_HINT)) continue;
        file.code = `${COMPILE_HINT}\n${file.code}`;
        if (file.map) file.map.mappings = `;${file.map.mappings}`;
      }
    },
  };
}
