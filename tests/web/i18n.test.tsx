import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { NAMESPACES } from '@/shared/i18n';

const root = path.resolve(__dirname, '../../locales');

function keys(node: unknown, prefix = ''): string[] {
  if (typeof node === 'string') return [prefix];
  return Object.entries(node as Record<string, unknown>).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}

function load(lng: string, ns: string) {
  return JSON.parse(fs.readFileSync(path.join(root, lng, `${ns}.json`), 'utf8'));
}

function placeholders(text: string): string[] {
  return [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
}

describe('locales', () => {
  // `staff` and `console` (issue 18) are added by the staff chunks (src/pages/staff/i18n.ts,
  // src/pages/staff/console/i18n.ts), `privacy` (issue 32) by the "Datele tale" page's (src/pages/account/i18n.ts), not part of NAMESPACES.
  it.each([...NAMESPACES, 'steps', 'staff', 'console', 'privacy'])('en/%s.json has exactly the keys and placeholders of ro/%s.json', (ns) => {
    const ro = load('ro', ns);
    const en = load('en', ns);
    expect(keys(en).sort()).toEqual(keys(ro).sort());
    for (const key of keys(ro)) {
      const get = (o: any) => key.split('.').reduce((n, k) => n[k], o) as string;
      expect(placeholders(get(en)), key).toEqual(placeholders(get(ro)));
      expect(get(en).trim(), key).not.toBe('');
    }
  });

  it("holds the spec's exact Romanian copy", () => {
    const all = NAMESPACES.map((ns) => JSON.stringify(load('ro', ns))).join('\n');
    for (const text of [
      'Această pagină a fost mutată sau nu există!',
      'Întoarce-te la prima pagină',
      'Intră în cont',
      'Trimite',
      'Resetează',
      'Succes',
      'Am PFA',
      'Vreau PFA',
      '07xxxxxxxx',
      'Minim 6 caractere',
      'Tip abonament',
      'Selectează tipul de abonament',
      'Nu exista tipuri de abonament',
      'Înființare PFA',
      'Registrare PFA',
      'Dezabonare',
      'Oprește notificările',
      'Status Dosar',
    ]) {
      expect(all, text).toContain(text);
    }
  });
});
