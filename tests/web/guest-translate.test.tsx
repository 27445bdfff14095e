import { describe, expect, it } from 'vitest';
import i18next from 'i18next';
import common from '../../locales/ro/common.json';
import auth from '../../locales/ro/auth.json';
import register from '../../locales/ro/register.json';
import { createTranslate } from '@/guest/translate';
import { matchParams } from '@/guest/navigation';

/** The guest pages' `t` (src/guest/translate.ts) answers what i18next answers, for every key they can use. */
const resources = { common, auth, register };

function leaves(tree: unknown, prefix = ''): [string, string][] {
  if (typeof tree === 'string') return [[prefix, tree]];
  if (tree === null || typeof tree !== 'object') return [];
  return Object.entries(tree).flatMap(([k, v]) => leaves(v, prefix ? `${prefix}.${k}` : k));
}

async function reference(ns: string) {
  const instance = i18next.createInstance();
  await instance.init({ lng: 'ro', ns: Object.keys(resources), defaultNS: ns, resources: { ro: resources }, interpolation: { escapeValue: false }, returnNull: false });
  return instance.getFixedT('ro', ns);
}

describe('the guest pages\u2019 t', () => {
  it.each(Object.keys(resources))('answers as i18next for every key of %s, with and without the namespace prefix', async (ns) => {
    const t = createTranslate(resources, ns);
    const other = ns === 'common' ? 'auth' : 'common';
    const tOther = createTranslate(resources, other);
    const ref = await reference(ns);
    const refOther = await reference(other);
    const entries = leaves(resources[ns as keyof typeof resources]);
    expect(entries.length).toBeGreaterThan(5);
    for (const [key, text] of entries) {
      // Every variable the string names, plus `product` (useT always passes it).
      const vars: Record<string, unknown> = { product: 'Ghișeu', title: 'Titlu' };
      for (const m of text.matchAll(/\{\{\s*([\w.]+)\s*\}\}/g)) vars[m[1]] = m[1] === 'position' ? 2 : `«${m[1]}»`;
      expect(t(key, vars)).toBe(ref(key, vars));
      expect(tOther(`${ns}:${key}`, vars)).toBe(refOther(`${ns}:${key}`, vars));
    }
  });

  it('answers the key for a key that does not exist, as i18next does', async () => {
    const ref = await reference('auth');
    const t = createTranslate(resources, 'auth');
    for (const key of ['login.nope', 'common:nope.deeper', 'nope']) expect(t(key)).toBe(ref(key));
  });

  it('the copy uses no i18next feature it lacks (plurals, nesting, formats)', () => {
    for (const ns of Object.keys(resources)) {
      for (const [key, text] of leaves(resources[ns as keyof typeof resources])) {
        expect(key, `${ns}:${key}`).not.toMatch(/_(zero|one|two|few|many|other)$/);
        expect(text, `${ns}:${key}`).not.toMatch(/\$t\(|\{\{[^}]*,|\{\{-/);
      }
    }
  });
});

describe("the guest pages' route parameters", () => {
  it('reads optional and required segments as React Router does', () => {
    expect(matchParams('/register/:partner?', '/register')).toEqual({ partner: undefined });
    expect(matchParams('/register/:partner?', '/register/icredit/')).toEqual({ partner: 'icredit' });
    expect(matchParams('/register/account/:partner?', '/register/account/a%20b')).toEqual({ partner: 'a b' });
    expect(matchParams('/login', '/login')).toEqual({});
    expect(matchParams('/login', '/register')).toBeNull();
    expect(matchParams('/register/:partner?', '/register/a/b')).toBeNull();
  });
});
