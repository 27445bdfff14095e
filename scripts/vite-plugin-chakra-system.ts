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
 * The guest build's Chakra (vite.guest.config.ts; issue 14): the system's global CSS (reset, global
 * styles, every token's CSS variable: `createSystem`'s `_global`, ~40% of its start-up work, and
 * emotion's serialization and hash of that text in `<ChakraProvider>`'s `<Global>`) is already in the
 * page: the prerendered `<style data-emotion="css-global …">` that src/guest/render.tsx moves to
 * <head>. Two edits of Chakra's own modules, in that build only:
 * - `createSystem` computes `_global` when it is first read (a getter), not while it builds the system;
 * - `<ChakraProvider>` does not render that `<Global>` when the system says its global CSS is in the
 *   document (`_globalInDocument`, set by render.tsx only after it moved the prerendered styles).
 * An edit that no longer matches Chakra's code (another version) fails the build instead of being skipped.
 */
export const CHAKRA_GUEST_EDITS: { file: string; from: string; to: string }[] = [
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

export function chakraGlobalFromPage(edits = CHAKRA_GUEST_EDITS): Plugin {
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
