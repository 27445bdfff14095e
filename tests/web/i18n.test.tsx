import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { NAMESPACES } from '@/shared/i18n';

const root = path.resolve(__dirname, '../../locales');

function load(lng: string, ns: string) {
  return JSON.parse(fs.readFileSync(path.join(root, lng, `${ns}.json`), 'utf8'));
}

describe('locales', () => {
  // Parity of every namespace file (same keys, texts, placeholders in ro and en): tests/core/locale-parity.test.ts.

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
