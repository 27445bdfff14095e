import fs from 'node:fs';
import path from 'node:path';
import type { ConfigEnv, Plugin, PluginOption } from 'vite';
import { describe, expect, it } from 'vitest';
import { CHAKRA_GLOBAL_EDITS, chakraGlobalFromPage } from '../../scripts/vite-plugin-chakra-system';
import appConfig from '../../vite.config';
import guestConfig from '../../vite.guest.config';

/**
 * The two builds' edits of Chakra (scripts/vite-plugin-chakra-system.ts `chakraGlobalFromPage`)
 * against the installed Chakra: each still finds its text (a Chakra upgrade that moves it is caught
 * here, not only by the build), what each edit leaves, what the plugin's hooks do with a module, and
 * which builds apply it.
 */
const SYSTEM = '/@chakra-ui/react/dist/esm/styled-system/system.js';
const PROVIDER = '/@chakra-ui/react/dist/esm/styled-system/provider.js';
const installed = (file: string) => fs.readFileSync(path.join('node_modules', file), 'utf8');
const edited = (file: string) => CHAKRA_GLOBAL_EDITS.filter((e) => e.file === file).reduce((code, edit) => code.replace(edit.from, edit.to), installed(file));

describe("the builds' edits of Chakra", () => {
  it('each finds its text, once, in the installed module', () => {
    for (const edit of CHAKRA_GLOBAL_EDITS) expect(installed(edit.file).split(edit.from)).toHaveLength(2);
  });

  it('turns `_global` into a getter that builds the global CSS on its first read, not in createSystem', () => {
    const code = edited(SYSTEM);
    expect(code).not.toContain('getPreflightCss(), getGlobalCss(), getTokenCss()];\n  const query');
    expect(code).toMatch(/get _global\(\) \{\n\s+return _globalCss \?\?= \[getPreflightCss\(\), getGlobalCss\(\), getTokenCss\(\)\];/);
  });

  it('skips only the system-CSS <Global> of <ChakraProvider>, when told', () => {
    const code = edited(PROVIDER);
    expect(code).toContain('!sys._globalInDocument && /* @__PURE__ */ jsx(Global, { styles: sys._global })');
    // The cascade layers' <Global> stays (emotion rehydrates it from the prerendered page).
    expect(code).toContain('jsx(Global, { styles: sys.layers.atRule })');
  });
});

type Context = { error: (message: string) => never };
type Hooks = {
  transform: (this: Context, code: string, id: string) => { code: string; map: null } | null;
  buildEnd: (this: Context, error?: Error) => void;
};
const context: Context = {
  error: (message) => {
    throw new Error(message);
  },
};

describe('the plugin chakraGlobalFromPage', () => {
  it("edits Chakra's two modules as the build sees them (POSIX or Windows paths), and no other module", () => {
    const plugin = chakraGlobalFromPage() as unknown as Hooks;
    expect(plugin.transform.call(context, installed(SYSTEM), `/app/node_modules${SYSTEM}`)).toEqual({ code: edited(SYSTEM), map: null });
    const windows = `C:\\app\\node_modules${PROVIDER.replace(/\//g, '\\')}`;
    expect(plugin.transform.call(context, installed(PROVIDER), windows)).toEqual({ code: edited(PROVIDER), map: null });
    expect(plugin.transform.call(context, 'export const x = 1;', '/app/node_modules/@chakra-ui/react/dist/esm/components/button/button.js')).toBeNull();
    expect(plugin.transform.call(context, 'export const x = 1;', '/app/src/shared/theme.ts')).toBeNull();
    expect(() => plugin.buildEnd.call(context)).not.toThrow();
  });

  it('fails the build when a module no longer contains the text an edit replaces (another Chakra)', () => {
    const plugin = chakraGlobalFromPage() as unknown as Hooks;
    const changed = installed(PROVIDER).replace('jsx(Global, { styles: sys._global })', 'jsx(Global, { styles: system._global })');
    expect(() => plugin.transform.call(context, changed, `/app/node_modules${PROVIDER}`)).toThrow(`chakra-global-from-page: ${PROVIDER} no longer contains`);
  });

  it('fails the build when an edited module never went through it, but not after a failed build', () => {
    const plugin = chakraGlobalFromPage() as unknown as Hooks;
    plugin.transform.call(context, installed(SYSTEM), `/app/node_modules${SYSTEM}`);
    expect(() => plugin.buildEnd.call(context)).toThrow(`chakra-global-from-page: not applied (module not in the build?): ${PROVIDER}`);
    expect(() => plugin.buildEnd.call(context, new Error('the build failed'))).not.toThrow();
  });
});

/** The plugins of a Vite config, flattened (a plugin factory may give several). */
function plugins(option: PluginOption): Plugin[] {
  if (Array.isArray(option)) return option.flatMap(plugins);
  return option && typeof option === 'object' && 'name' in option ? [option] : [];
}
const applies = (plugin: Plugin, env: ConfigEnv) => (typeof plugin.apply === 'function' ? plugin.apply({}, env) : plugin.apply === undefined || plugin.apply === env.command);

describe('the builds that apply it', () => {
  const client: ConfigEnv = { command: 'build', mode: 'production', isSsrBuild: false };
  const ssr: ConfigEnv = { command: 'build', mode: 'production', isSsrBuild: true };
  const serve: ConfigEnv = { command: 'serve', mode: 'development' };

  it("the guest build (vite.guest.config.ts): its guest pages are prerendered", () => {
    const found = plugins(guestConfig.plugins).filter((p) => p.name === 'ghiseu:chakra-global-from-page');
    expect(found).toHaveLength(1);
    expect(applies(found[0], client)).toBe(true);
  });

  it("the app's client build only (vite.config.ts): its step shells are prerendered; not its SSR build, dev server or tests", () => {
    const found = plugins(appConfig.plugins).filter((p) => p.name === 'ghiseu:chakra-global-from-page');
    expect(found).toHaveLength(1);
    expect(applies(found[0], client)).toBe(true);
    expect(applies(found[0], ssr)).toBe(false);
    expect(applies(found[0], serve)).toBe(false);
    expect(applies(found[0], { ...serve, mode: 'test' })).toBe(false);
  });
});
