import path from 'node:path';
import type { Plugin } from 'vite';

/**
 * Gives @rjsf/chakra-ui the app's Chakra system instead of Chakra's `defaultSystem` (see
 * src/shared/chakra-rjsf-shim.ts): its `import … from '@chakra-ui/react'` resolves to the shim.
 */
export function chakraSystemForRjsf(root = process.cwd()): Plugin {
  const shim = path.resolve(root, 'src/shared/chakra-rjsf-shim.ts');
  return {
    name: 'ghiseu:chakra-system-for-rjsf',
    enforce: 'pre',
    async resolveId(source, importer) {
      if (source !== '@chakra-ui/react' || !importer) return null;
      if (!importer.replace(/\\/g, '/').includes('/node_modules/@rjsf/chakra-ui/')) return null;
      return this.resolve(shim, importer, { skipSelf: true });
    },
  };
}

/**
 * Chakra's global CSS taken from the prerendered page instead of built again (issue 14), in BOTH builds
 * that start from a prerendered page in the browser:
 * - the guest build (vite.guest.config.ts, `chakraGlobalFromPage`): every guest page is prerendered,
 *   and src/guest/render.tsx adopts its CSS;
 * - the app's client build (vite.config.ts, `chakraGlobalInStepShells`): a step page's prerendered
 *   shell carries the same CSS, which src/main.tsx adopts (src/shared/shell.ts `adoptShellGlobalStyles`).
 * The system's global CSS (reset, global styles, every token's CSS variable: `createSystem`'s
 * `_global`, ~40% of its start-up work, and emotion's serialization and hash of that text in
 * `<ChakraProvider>`'s `<Global>`) is then already in the page: the prerendered
 * `<style data-emotion="css-global …">`, which src/shared/theme.ts `adoptPrerenderedGlobalCss` moves
 * to <head>. Two edits of Chakra's own modules:
 * - `createSystem` computes `_global` when it is first read (a getter), not while it builds the system;
 * - `<ChakraProvider>` does not render that `<Global>` when the system says its global CSS is in the
 *   document (`_globalInDocument`, set by `adoptPrerenderedGlobalCss` only after it moved the
 *   prerendered styles).
 * A page that brought no such CSS (the app's index.html: every page of the app without a shell) never
 * sets `_globalInDocument`: the getter builds the CSS on its first read and `<ChakraProvider>` renders
 * it, as without the edits. An edit that no longer matches Chakra's code (another version) fails the
 * build instead of being skipped (docs/decisions/0002-chakra-module-edits.md: why, what it costs, how
 * to remove it).
 */
export const CHAKRA_GLOBAL_EDITS: { file: string; from: string; to: string }[] = [
  {
    file: '/@chakra-ui/react/dist/esm/styled-system/system.js',
    from: 'const _global = [getPreflightCss(), getGlobalCss(), getTokenCss()];',
    to: 'let _globalCss;',
  },
  {
    file: '/@chakra-ui/react/dist/esm/styled-system/system.js',
    from: '    _global,\n',
    to: '    get _global() {\n      return _globalCss ??= [getPreflightCss(), getGlobalCss(), getTokenCss()];\n    },\n',
  },
  {
    file: '/@chakra-ui/react/dist/esm/styled-system/provider.js',
    from: '/* @__PURE__ */ jsx(Global, { styles: sys._global }),',
    to: '!sys._globalInDocument && /* @__PURE__ */ jsx(Global, { styles: sys._global }),',
  },
];

export function chakraGlobalFromPage(edits = CHAKRA_GLOBAL_EDITS): Plugin {
  const files = new Set(edits.map((e) => e.file));
  const done = new Set<(typeof edits)[number]>();
  return {
    name: 'ghiseu:chakra-global-from-page',
    enforce: 'pre',
    transform(code, id) {
      const file = [...files].find((f) => id.replace(/\\/g, '/').endsWith(f));
      if (!file) return null;
      let out = code;
      for (const edit of edits.filter((e) => e.file === file)) {
        if (!out.includes(edit.from)) this.error(`chakra-global-from-page: ${file} no longer contains ${JSON.stringify(edit.from)} (Chakra changed: update the edit)`);
        out = out.replace(edit.from, edit.to);
        done.add(edit);
      }
      return { code: out, map: null };
    },
    buildEnd(error) {
      if (error) return;
      const missed = edits.filter((e) => !done.has(e));
      if (missed.length) this.error(`chakra-global-from-page: not applied (module not in the build?): ${missed.map((e) => e.file).join(', ')}`);
    },
  };
}

/**
 * `chakraGlobalFromPage` for the app's build (vite.config.ts): the client build only, whose step pages
 * come with a prerendered shell. Not the app's SSR build (the prerender, scripts/prerender.ts), its dev
 * server or the tests: there Chakra is not bundled (Node loads it from node_modules, the dev server
 * pre-bundles it), so the edits would find no module and the build would fail on the missed edits. The
 * guest build applies `chakraGlobalFromPage` as it is: it has only the one client build.
 */
export function chakraGlobalInStepShells(): Plugin {
  return { ...chakraGlobalFromPage(), apply: (_config, env) => env.command === 'build' && !env.isSsrBuild };
}
