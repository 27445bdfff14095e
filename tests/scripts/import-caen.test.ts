import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeCaenBytes, formatCaenJson, main, parseCaenCsv, sectionOfCode } from '../../server/db/import-caen';

/** A small extract in the shape of the INS structure file: sections, divisions, groups and classes. */
const SAMPLE = [
  'COD;DENUMIRE',
  'J;INFORMAȚII ȘI COMUNICAȚII',
  '62;Activități de servicii în tehnologia informației',
  '620;Activități de servicii în tehnologia informației',
  '6201;Activități de realizare a soft-ului la comandă (software orientat client)',
  '6202;Activități de consultanţă în tehnologia informaţiei',
  'M;ACTIVITĂȚI PROFESIONALE, ȘTIINȚIFICE ȘI TEHNICE',
  '69;Activități juridice și de contabilitate',
  '692;Activități de contabilitate și audit financiar; consultanță în domeniul fiscal',
  '"69.20";"Activități de contabilitate și audit financiar; consultanță în domeniul fiscal"',
  '',
].join('\r\n');

describe('import-caen', () => {
  it('keeps the 4-digit classes with their section, cedilla letters made comma-below', () => {
    const file = parseCaenCsv(SAMPLE, { source: 'test' });
    expect(file.revision).toBe('CAEN Rev.2');
    expect(file.codes).toEqual([
      { id: 6201, code: '6201', name: 'Activități de realizare a soft-ului la comandă (software orientat client)', section: 'J' },
      { id: 6202, code: '6202', name: 'Activități de consultanță în tehnologia informației', section: 'J' },
      { id: 6920, code: '6920', name: 'Activități de contabilitate și audit financiar; consultanță în domeniul fiscal', section: 'M' },
    ]);
  });

  it('reads comma-separated files with other header names and derives the section from the division', () => {
    const file = parseCaenCsv('Cod CAEN,Denumire,Nivel\n0111,"Cultivarea cerealelor, plantelor leguminoase",4\n8291,Activități ale agențiilor de colectare,4\n', {
      revision: 'CAEN Rev.3',
    });
    expect(file.revision).toBe('CAEN Rev.3');
    expect(file.codes.map((c) => [c.code, c.section, c.name])).toEqual([
      ['0111', 'A', 'Cultivarea cerealelor, plantelor leguminoase'],
      ['8291', 'N', 'Activități ale agențiilor de colectare'],
    ]);
    expect(sectionOfCode('4932')).toBe('H');
    expect(sectionOfCode('9900')).toBe('U');
  });

  it('rejects a file without code/name columns, duplicates and empty names', () => {
    expect(() => parseCaenCsv('A;B\n6201;x')).toThrow(/code and a name column/);
    expect(() => parseCaenCsv('COD;DENUMIRE\n6201;x\n6201;y')).toThrow(/appears twice/);
    expect(() => parseCaenCsv('COD;DENUMIRE\n6201;')).toThrow(/has no name/);
    expect(() => parseCaenCsv('COD;DENUMIRE\n62;x')).toThrow(/No 4-digit/);
  });

  it('decodes Windows-1250 files', () => {
    const bytes = new Uint8Array([0x36, 0x32, 0x30, 0x31, 0x3b, 0x9a, 0x74, 0x69, 0x69, 0x6e, 0xfe, 0x61]); // "6201;știință" in cp1250 (š stands in)
    expect(decodeCaenBytes(bytes).startsWith('6201;')).toBe(true);
  });

  it('writes caen.json that the seed reads (one code per line)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'caen-'));
    const input = path.join(dir, 'caen.csv');
    const out = path.join(dir, 'caen.json');
    fs.writeFileSync(input, SAMPLE);
    expect(main([input, '--out', out])).toBe(0);
    const text = fs.readFileSync(out, 'utf8');
    const json = JSON.parse(text);
    expect(json.revision).toBe('CAEN Rev.2');
    expect(json.codes).toHaveLength(3);
    expect(text).toBe(formatCaenJson(json));
    expect(text.split('\n').filter((l) => l.includes('"code"'))).toHaveLength(3);
  });

  it('the shipped seed holds the 615 CAEN Rev.2 classes, unique, each with a section', () => {
    const seed = JSON.parse(fs.readFileSync(path.join(__dirname, '../../server/db/seed/caen.json'), 'utf8'));
    expect(seed.revision).toBe('CAEN Rev.2');
    expect(seed.codes).toHaveLength(615);
    expect(new Set(seed.codes.map((c: { code: string }) => c.code)).size).toBe(615);
    for (const c of seed.codes) {
      expect(c.code).toMatch(/^\d{4}$/);
      expect(c.id).toBe(Number(c.code));
      expect(c.section).toBe(sectionOfCode(c.code));
    }
  });
});
