import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import ro from '../../locales/ro/steps.json';
import en from '../../locales/en/steps.json';
import { createI18n, loadStepsNamespace, setLanguage } from '@/shared/i18n';
import { localeFile, localeJson } from '../copy';

const root = fileURLToPath(new URL('../..', import.meta.url));
const repository = (lng: string) => JSON.parse(fs.readFileSync(path.join(root, 'locales', lng, 'steps.json'), 'utf8')) as unknown;

/**
 * The step copy the app and the tests use is the one COPY_LOCALES_DIR names when it is set
 * (scripts/vite-plugin-copy-locales.ts, tests/copy.ts), else the repository's: without this, the
 * copy-rewrite run (tests/scripts/copy-rewrite.test.ts) would prove nothing.
 */
describe('the step copy in use', () => {
  it("the tests' imports and files read the same copy", () => {
    expect(ro).toEqual(localeJson('ro', 'steps'));
    expect(en).toEqual(localeJson('en', 'steps'));
  });

  it("the app's i18next loads it, in both languages", async () => {
    const i18n = createI18n();
    await loadStepsNamespace(i18n);
    expect(i18n.getResourceBundle('ro', 'steps')).toEqual(localeJson('ro', 'steps'));
    await setLanguage(i18n, 'en');
    expect(i18n.getResourceBundle('en', 'steps')).toEqual(localeJson('en', 'steps'));
  });

  it.runIf(process.env.COPY_LOCALES_DIR)('is the copy of COPY_LOCALES_DIR, not the repository\'s', () => {
    expect(localeFile('ro', 'steps')).toBe(path.join(path.resolve(process.env.COPY_LOCALES_DIR!), 'ro', 'steps.json'));
    expect(ro).not.toEqual(repository('ro'));
    expect(en).not.toEqual(repository('en'));
  });

  it.skipIf(process.env.COPY_LOCALES_DIR)("is the repository's without COPY_LOCALES_DIR", () => {
    expect(ro).toEqual(repository('ro'));
    expect(en).toEqual(repository('en'));
  });
});
