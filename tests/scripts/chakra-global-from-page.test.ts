import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHAKRA_GUEST_EDITS } from '../../scripts/vite-plugin-chakra-system';

/**
 * The guest build's two edits of Chakra (scripts/vite-plugin-chakra-system.ts `chakraGlobalFromPage`)
 * against the installed Chakra: each still finds its text (a Chakra upgrade that moves it is caught
 * here, not only by the build), and what each edit leaves.
 */
const installed = (file: string) => fs.readFileSync(path.join('node_modules', file), 'utf8');

describe("the guest build's edits of Chakra", () => {
  it('each finds its text, once, in the installed module', () => {
    for (const edit of CHAKRA_GUEST_EDITS) expect(installed(edit.file).split(edit.from)).toHaveLength(2);
  });

  it('turns `_global` into a getter that builds the global CSS on its first read, not in createSystem', () => {
    let code = installed('/@chakra-ui/react/dist/esm/styled-system/system.js');
    for (const edit of CHAKRA_GUEST_EDITS.filter((e) => e.file.endsWith('/system.js'))) code = code.replace(edit.from, edit.to);
    expect(code).not.toContain('getPreflightCss(), getGlobalCss(), getTokenCss()];\n  const query');
    expect(code).toMatch(/get _global\(\) \{\n\s+return _globalCss \?\?= \[getPreflightCss\(\), getGlobalCss\(\), getTokenCss\(\)\];/);
  });

  it('skips only the system-CSS <Global> of <ChakraProvider>, when told', () => {
    let code = installed('/@chakra-ui/react/dist/esm/styled-system/provider.js');
    for (const edit of CHAKRA_GUEST_EDITS.filter((e) => e.file.endsWith('/provider.js'))) code = code.replace(edit.from, edit.to);
    expect(code).toContain('!sys._globalInDocument && /* @__PURE__ */ jsx(Global, { styles: sys._global })');
    // The cascade layers' <Global> stays (emotion rehydrates it from the prerendered page).
    expect(code).toContain('jsx(Global, { styles: sys.layers.atRule })');
  });
});
