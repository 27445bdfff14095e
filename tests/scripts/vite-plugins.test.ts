import fs from 'node:fs';
import path from 'node:path';
import type { Plugin, PluginOption } from 'vite';
import { describe, expect, it } from 'vitest';
import appConfig from '../../vite.config';
import guestConfig from '../../vite.guest.config';

/**
 * Every Vite plugin of the two builds (vite.config.ts, vite.guest.config.ts) that is the project's own
 * lives in a scripts/vite-plugin-*.ts file and has a test file of its own, which calls its hooks
 * (issue 34). A plugin written inline in a config, or a new one without its test, fails here.
 * @vitejs/plugin-react's plugins (`vite:…`) are the package's.
 */
const OWN_PLUGINS: Record<string, { file: string; test: string }> = {
  'copy-locales': { file: 'vite-plugin-copy-locales.ts', test: 'vite-plugin-copy-locales.test.ts' },
  'e2e-flows-dir': { file: 'vite-plugin-flows-dir.ts', test: 'vite-plugin-flows-dir.test.ts' },
  'step-validators': { file: 'vite-plugin-step-validators.ts', test: 'vite-plugin-step-validators.test.ts' },
  'ghiseu:chakra-system-for-rjsf': { file: 'vite-plugin-chakra-system.ts', test: 'vite-plugin-chakra-system-for-rjsf.test.ts' },
  'ghiseu:chakra-global-from-page': { file: 'vite-plugin-chakra-system.ts', test: 'vite-plugin-chakra-global-from-page.test.ts' },
  'ghiseu:rjsf-markdown-only-when-used': { file: 'vite-plugin-rjsf-markdown.ts', test: 'vite-plugin-rjsf-markdown.test.ts' },
  'ghiseu:route-pages': { file: 'vite-plugin-route-pages.ts', test: 'vite-plugin-route-pages.test.ts' },
  'ghiseu:precompress': { file: 'vite-plugin-precompress.ts', test: 'vite-plugin-precompress.test.ts' },
  'ghiseu:compile-hints': { file: 'vite-plugin-compile-hints.ts', test: 'vite-plugin-compile-hints.test.ts' },
};

function plugins(option: PluginOption): Plugin[] {
  if (Array.isArray(option)) return option.flatMap(plugins);
  return option && typeof option === 'object' && 'name' in option ? [option] : [];
}
const own = (list: Plugin[]) => list.map((p) => p.name).filter((name) => !name.startsWith('vite:'));

describe("the builds' own Vite plugins", () => {
  const names = [...own(plugins(appConfig.plugins)), ...own(plugins(guestConfig.plugins))];

  it('are the known ones, each with its scripts/ file and its own test file, which imports that file', () => {
    expect([...new Set(names)].sort()).toEqual(Object.keys(OWN_PLUGINS).sort());
    for (const [name, { file, test }] of Object.entries(OWN_PLUGINS)) {
      expect(fs.existsSync(path.resolve('scripts', file)), file).toBe(true);
      const testFile = path.resolve('tests/scripts', test);
      expect(fs.existsSync(testFile), `${name}: ${test}`).toBe(true);
      expect(fs.readFileSync(testFile, 'utf8'), test).toContain(`scripts/${file.replace(/\.ts$/, '')}`);
    }
  });

  it('leave no scripts/vite-plugin-*.ts file unused', () => {
    const files = fs.readdirSync('scripts').filter((f) => /^vite-plugin-.+\.ts$/.test(f));
    expect(files.sort()).toEqual([...new Set(Object.values(OWN_PLUGINS).map((p) => p.file))].sort());
  });
});
