import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CAEN_REV2,
  CAEN_REV3,
  decodeCaenBytes,
  formatCaenCorrespondenceJson,
  formatCaenJson,
  main,
  parseCaenCorrespondenceCsv,
  parseCaenCsv,
  parseCaenSeedJson,
  sectionLetters,
  sectionOfCode,
  type CaenCorrespondenceFile,
  type CaenFile,
} from '../../server/db/import-caen';

const ROOT = path.join(__dirname, '../..');
const SEED = path.join(ROOT, 'server/db/seed');
const SOURCES = path.join(ROOT, 'server/db/sources/caen');

/** A small CAEN Rev.3 extract in the shape of the INS structure file: sections, divisions, groups and classes. */
const SAMPLE_REV3 = [
  'COD;DENUMIRE',
  'J;ACTIVITĂȚI DE EDITARE; DIFUZAREA DE PROGRAME DE RADIO ȘI TELEVIZIUNE; ACTIVITĂȚI DE PRODUCȚIE ȘI DISTRIBUȚIE DE CONȚINUTURI',
  '58;Activități de editare',
  '581;Activități de editare a cărților, periodicelor și alte activități de editare',
  '5811;Activități de editare a cărților',
  '"K";"TELECOMUNICAȚII; ACTIVITĂȚI DE PROGRAMARE ȘI DE CONSULTANȚĂ ÎN TEHNOLOGIA INFORMAȚIEI; ALTE SERVICII INFORMAȚIONALE"',
  '62;Activități de programare și activități de consultanță în tehnologia informației',
  '621;Activități de realizare a soft-ului la comandă (software orientat client)',
  '6210;Activități de realizare a soft-ului la comandă (software orientat client)',
  '622;Activități de consultanţă în tehnologia informaţiei',
  '6220;Activităţi de consultanţă în tehnologia informaţiei şi de management (gestiune şi exploatare) a mijloacelor de calcul',
  '',
  'N;ACTIVITĂȚI PROFESIONALE, ȘTIINȚIFICE ȘI TEHNICE',
  '"69.20";"Activități de contabilitate și audit financiar; consultanță în domeniul fiscal"',
  'O;ACTIVITĂȚI DE SERVICII ADMINISTRATIVE ȘI ACTIVITĂȚI DE SERVICII-SUPORT',
  '8291;Activități ale agențiilor de colectare și a birourilor (oficiilor) de raportare a creditului',
  'R;SĂNĂTATE ȘI ASISTENȚĂ SOCIALĂ',
  '8693;Activități ale psihologilor și psihoterapeuților, cu excepția medicilor',
  'V;ACTIVITĂȚI ALE ORGANIZAȚIILOR ȘI ORGANISMELOR EXTRATERITORIALE',
  '99;Activități ale organizațiilor și organismelor extrateritoriale',
  '9900;Activități ale organizațiilor și organismelor extrateritoriale',
  '',
].join('\r\n');

/** The same kind of extract from CAEN Rev.2 (sections A–U, IT in J). */
const SAMPLE_REV2 = [
  'COD;DENUMIRE',
  'J;INFORMAȚII ȘI COMUNICAȚII',
  '62;Activități de servicii în tehnologia informației',
  '6201;Activități de realizare a soft-ului la comandă (software orientat client)',
  '6202;Activități de consultanţă în tehnologia informaţiei',
  'U;ACTIVITĂȚI ALE ORGANIZAȚIILOR ȘI ORGANISMELOR EXTRATERITORIALE',
  '9900;Activități ale organizațiilor și organismelor extrateritoriale',
].join('\n');

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'caen-'));
const readJson = <T>(file: string): T => JSON.parse(fs.readFileSync(file, 'utf8')) as T;

describe('import-caen: class lists', () => {
  it('keeps the Rev.3 classes with their section A–V (K for IT, V for 9900), cedilla letters made comma-below', () => {
    const file = parseCaenCsv(SAMPLE_REV3, { source: 'test' });
    expect(file.revision).toBe(CAEN_REV3);
    expect(file.codes.map((c) => [c.code, c.section])).toEqual([
      ['5811', 'J'],
      ['6210', 'K'],
      ['6220', 'K'],
      ['6920', 'N'],
      ['8291', 'O'],
      ['8693', 'R'],
      ['9900', 'V'],
    ]);
    expect(file.codes[2]).toEqual({
      code: '6220',
      name: 'Activități de consultanță în tehnologia informației și de management (gestiune și exploatare) a mijloacelor de calcul',
      section: 'K',
    });
    expect(file.codes[3].name).toBe('Activități de contabilitate și audit financiar; consultanță în domeniul fiscal');
    expect(file.counts).toEqual({ sections: 6, classes: 7 });
    expect(file.codes.every((c) => !('id' in c))).toBe(true);
  });

  it('keeps the Rev.2 section table for --revision "CAEN Rev.2"', () => {
    const file = parseCaenCsv(SAMPLE_REV2, { revision: CAEN_REV2 });
    expect(file.codes.map((c) => [c.code, c.section])).toEqual([
      ['6201', 'J'],
      ['6202', 'J'],
      ['9900', 'U'],
    ]);
    expect(sectionLetters(CAEN_REV2)?.join('')).toBe('ABCDEFGHIJKLMNOPQRSTU');
    expect(sectionLetters(CAEN_REV3)?.join('')).toBe('ABCDEFGHIJKLMNOPQRSTUV');
  });

  it('derives the section from the division by the table of the revision', () => {
    expect(sectionOfCode('6201', CAEN_REV2)).toBe('J');
    expect(sectionOfCode('6210')).toBe('K');
    expect(sectionOfCode('9900', CAEN_REV2)).toBe('U');
    expect(sectionOfCode('9900')).toBe('V');
    expect(sectionOfCode('6810', CAEN_REV2)).toBe('L');
    expect(sectionOfCode('6811')).toBe('M');
    expect(sectionOfCode('4520', CAEN_REV2)).toBe('G');
    expect(sectionOfCode('4520')).toBeNull(); // division 45 is gone in Rev.3 (repair of vehicles → 95)
    expect(sectionOfCode('9531')).toBe('T');
    expect(sectionOfCode('4932')).toBe('H');
    expect(sectionOfCode('8693', CAEN_REV3)).toBe('R');
  });

  it('reads comma-separated files with other header names, without section rows', () => {
    const file = parseCaenCsv('Cod CAEN,Denumire,Nivel\n0111,"Cultivarea cerealelor, plantelor leguminoase",4\n8291,Activități ale agențiilor de colectare,4\n', {});
    expect(file.codes.map((c) => [c.code, c.section, c.name])).toEqual([
      ['0111', 'A', 'Cultivarea cerealelor, plantelor leguminoase'],
      ['8291', 'O', 'Activități ale agențiilor de colectare'],
    ]);
  });

  it('refuses a file of the other revision: sections or divisions that do not fit', () => {
    expect(() => parseCaenCsv(SAMPLE_REV2)).toThrow(/Line 4: code 6201 is given under section J, but division 62 belongs to section K in CAEN Rev\.3/);
    expect(() => parseCaenCsv(SAMPLE_REV3, { revision: CAEN_REV2 })).toThrow(/Line \d+: code 6210 is given under section K, but division 62 belongs to section J in CAEN Rev\.2/);
    expect(() => parseCaenCsv('COD;DENUMIRE\nV;EXTRATERITORIALE\n9900;x', { revision: CAEN_REV2 })).toThrow(/Line 2: section V is not a section of CAEN Rev\.2 \(A–U\)/);
    expect(() => parseCaenCsv('COD;DENUMIRE\n4520;Întreținerea și repararea autovehiculelor')).toThrow(/Line 2: code 4520: division 45 is not a division of CAEN Rev\.3/);
  });

  it('rejects a file without code/name columns, duplicates and empty names, naming the line', () => {
    expect(() => parseCaenCsv('A;B\n6201;x')).toThrow(/code and a name column/);
    expect(() => parseCaenCsv('COD;DENUMIRE\n6210;x\n\n6210;y')).toThrow(/Line 4: code 6210 appears twice/);
    expect(() => parseCaenCsv('COD;DENUMIRE\n6210;')).toThrow(/Line 2: code 6210 has no name/);
    expect(() => parseCaenCsv('COD;DENUMIRE\n62;x')).toThrow(/No 4-digit/);
  });

  it('decodes Windows-1250 files', () => {
    const bytes = new Uint8Array([0x36, 0x32, 0x31, 0x30, 0x3b, 0x9a, 0x74, 0x69, 0x69, 0x6e, 0xfe, 0x61]); // "6210;știință" in cp1250 (š stands in)
    expect(decodeCaenBytes(bytes).startsWith('6210;')).toBe(true);
  });

  it('writes the seed format: source, retrieved, revision, counts, one code per line and no ids', () => {
    const dir = tmp();
    const input = path.join(dir, 'CAEN-Rev.3.csv');
    const out = path.join(dir, 'caen-rev3.json');
    fs.writeFileSync(input, SAMPLE_REV3);
    expect(main([input, '--out', out, '--retrieved', '2026-11-28', '--source', 'INS test extract'])).toBe(0);
    const text = fs.readFileSync(out, 'utf8');
    const json = JSON.parse(text) as CaenFile;
    expect(Object.keys(json)).toEqual(['$comment', 'source', 'retrieved', 'revision', 'counts', 'codes']);
    expect(json).toMatchObject({ source: 'INS test extract', retrieved: '2026-11-28', revision: CAEN_REV3, counts: { sections: 6, classes: 7 } });
    expect(json.codes[1]).toEqual({ code: '6210', name: 'Activități de realizare a soft-ului la comandă (software orientat client)', section: 'K' });
    expect(text).toBe(formatCaenJson(json));
    expect(text.split('\n').filter((l) => l.includes('"code"'))).toHaveLength(7);
    expect(text).not.toMatch(/"id"/);
  });

  it('writes Rev.2 with --revision, and rewrites an old seed file (with ids) in the new format keeping its source', () => {
    const dir = tmp();
    const input = path.join(dir, 'rev2.csv');
    fs.writeFileSync(input, SAMPLE_REV2);
    const out = path.join(dir, 'caen-rev2.json');
    expect(main([input, '--revision', CAEN_REV2, '--out', out])).toBe(0);
    expect(readJson<CaenFile>(out)).toMatchObject({ revision: CAEN_REV2, counts: { sections: 2, classes: 3 } });
    expect(readJson<CaenFile>(out).retrieved).toMatch(/^\d{4}-\d{2}-\d{2}$/);

    const old = path.join(dir, 'caen.json');
    fs.writeFileSync(
      old,
      JSON.stringify({
        $comment: 'old',
        source: 'written from knowledge',
        revision: CAEN_REV2,
        codes: [
          { id: 6201, code: '6201', name: 'Activități de realizare a soft-ului la comandă (software orientat client)', section: 'J' },
          { id: 111, code: '0111', name: 'Cultivarea cerealelor', section: 'A' },
        ],
      }),
    );
    const rewritten = path.join(dir, 'rewritten.json');
    expect(main([old, '--out', rewritten, '--retrieved', '2026-11-28'])).toBe(0);
    const json = readJson<CaenFile>(rewritten);
    expect(json).toMatchObject({ source: 'written from knowledge', retrieved: '2026-11-28', revision: CAEN_REV2, counts: { sections: 2, classes: 2 } });
    expect(json.codes).toEqual([
      { code: '0111', name: 'Cultivarea cerealelor', section: 'A' },
      { code: '6201', name: 'Activități de realizare a soft-ului la comandă (software orientat client)', section: 'J' },
    ]);
    expect(parseCaenSeedJson(fs.readFileSync(rewritten, 'utf8')).codes).toEqual(json.codes);
  });

  it('refuses bad arguments', () => {
    expect(main(['--retrieved', 'yesterday', 'x.csv'])).toBe(2);
    expect(main(['a.csv', 'b.csv'])).toBe(2);
    expect(main([])).toBe(2);
  });
});

describe('import-caen: the Rev.2 → Rev.3 correspondence', () => {
  const rev2List = { file: 'rev2.json', codes: parseCaenCsv(SAMPLE_REV2, { revision: CAEN_REV2 }).codes };
  const rev3List = { file: 'rev3.json', codes: parseCaenCsv(SAMPLE_REV3).codes };
  const TABLE = ['REV2;REV3;OBS', '9900;9900;=', '6202;6220;=', '6201;6210;=', '"62.02";"8291";"part; of it"', ''].join('\n');

  it('reads one-to-one and split classes, sorted, with counts', () => {
    const file = parseCaenCorrespondenceCsv(TABLE, { rev2: rev2List, rev3: rev3List, source: 'test', retrieved: '2026-11-28' });
    expect(file.pairs).toEqual([
      ['6201', '6210'],
      ['6202', '6220'],
      ['6202', '8291'],
      ['9900', '9900'],
    ]);
    expect(file.counts).toEqual({ pairs: 4, rev2: 3, rev3: 4, splits: 1 });
  });

  it('accepts the header names of the official table', () => {
    const file = parseCaenCorrespondenceCsv('CAEN Rev.2\tCAEN Rev.3\n6201\t6210\n');
    expect(file.pairs).toEqual([['6201', '6210']]);
    expect(() => parseCaenCorrespondenceCsv('A;B\n6201;6210')).toThrow(/REV2 and a REV3 column/);
  });

  it('refuses codes that are not classes of their revision, naming the line', () => {
    const bad = ['REV2;REV3', '6201;6210', '6202;6220', '9900;9900', '6203;6220', '6202;6201', '62;6210', '6201;'].join('\n');
    const run = () => parseCaenCorrespondenceCsv(bad, { rev2: rev2List, rev3: rev3List });
    expect(run).toThrow(/Line 5: 6203 is not a class of CAEN Rev\.2 \(rev2\.json\)\./);
    expect(run).toThrow(/Line 6: 6201 is not a class of CAEN Rev\.3 \(rev3\.json\)\./);
    expect(run).toThrow(/Line 7: Rev\.2 code "62" is not a 4-digit class\./);
    expect(run).toThrow(/Line 8: no Rev\.3 code\./);
    expect(run).toThrow(/has 4 problem\(s\)/);
  });

  it('refuses a Rev.2 class without a target, and a pair given twice', () => {
    const missing = ['REV2;REV3', '6201;6210', '6202;6220'].join('\n');
    expect(() => parseCaenCorrespondenceCsv(missing, { rev2: rev2List, rev3: rev3List })).toThrow(
      /Rev\.2 class 9900 \(Activități ale organizațiilor și organismelor extrateritoriale\) has no Rev\.3 target/,
    );
    const twice = ['REV2;REV3', '6201;6210', '6202;6220', '9900;9900', '6201;6210'].join('\n');
    expect(() => parseCaenCorrespondenceCsv(twice, { rev2: rev2List, rev3: rev3List })).toThrow(/Line 5: the pair 6201 → 6210 is already on line 2\./);
  });

  it('main --correspondence writes one pair per line, checked against the given lists', () => {
    const dir = tmp();
    const rev2 = path.join(dir, 'caen-rev2.json');
    const rev3 = path.join(dir, 'caen-rev3.json');
    fs.writeFileSync(rev2, formatCaenJson(parseCaenCsv(SAMPLE_REV2, { revision: CAEN_REV2, source: 'x' })));
    fs.writeFileSync(rev3, formatCaenJson(parseCaenCsv(SAMPLE_REV3, { source: 'x' })));
    const input = path.join(dir, 'rev2-rev3.csv');
    fs.writeFileSync(input, TABLE);
    const out = path.join(dir, 'caen-rev2-rev3.json');
    expect(main(['--correspondence', input, '--check-against', `${rev2},${rev3}`, '--out', out, '--retrieved', '2026-11-28'])).toBe(0);
    const text = fs.readFileSync(out, 'utf8');
    const json = JSON.parse(text) as CaenCorrespondenceFile;
    expect(Object.keys(json)).toEqual(['$comment', 'source', 'retrieved', 'counts', 'pairs']);
    expect(json.counts).toEqual({ pairs: 4, rev2: 3, rev3: 4, splits: 1 });
    expect(text).toBe(formatCaenCorrespondenceJson(json));
    expect(text).toContain('\n    ["6202","8291"],\n');

    // The lists in the wrong order, a Rev.2 class missing, an unknown code: refused.
    expect(() => main(['--correspondence', input, '--check-against', `${rev3},${rev2}`, '--out', out])).toThrow(/expected the CAEN Rev\.2 class list, found CAEN Rev\.3/);
    fs.writeFileSync(input, 'REV2;REV3\n6201;6210\n6202;6220\n6202;9999\n');
    expect(() => main(['--correspondence', input, '--check-against', `${rev2},${rev3}`, '--out', out])).toThrow(
      /Line 4: 9999 is not a class of CAEN Rev\.3 \(caen-rev3\.json\)\.[\s\S]*Rev\.2 class 9900 .* has no Rev\.3 target/,
    );
    expect(main(['--correspondence', input, '--no-check', '--out', out])).toBe(0);
    expect(main(['--correspondence', input, '--check-against', rev2, '--out', out])).toBe(2);
  });
});

describe('the committed CAEN seeds', () => {
  const rev3 = readJson<CaenFile>(path.join(SEED, 'caen-rev3.json'));
  const rev2 = readJson<CaenFile>(path.join(SEED, 'caen-rev2.json'));
  const corr = readJson<CaenCorrespondenceFile>(path.join(SEED, 'caen-rev2-rev3.json'));
  const names3 = new Map(rev3.codes.map((c) => [c.code, c.name]));
  const codes2 = new Set(rev2.codes.map((c) => c.code));
  const targets = (code: string) => corr.pairs.filter(([from]) => from === code).map(([, to]) => to);

  it('CAEN Rev.3 has its 651 classes in the 22 sections A–V, unique, each in the section of its division, no ids', () => {
    expect(rev3.revision).toBe(CAEN_REV3);
    expect(rev3.retrieved).toBe('2026-11-28');
    expect(rev3.codes).toHaveLength(651);
    expect(rev3.counts).toEqual({ sections: 22, classes: 651 });
    expect(names3.size).toBe(651);
    expect([...new Set(rev3.codes.map((c) => c.section))].join('')).toBe('ABCDEFGHIJKLMNOPQRSTUV');
    for (const c of rev3.codes) {
      expect(Object.keys(c)).toEqual(['code', 'name', 'section']);
      expect(c.code).toMatch(/^\d{4}$/);
      expect(c.section, c.code).toBe(sectionOfCode(c.code, CAEN_REV3));
    }
    expect(rev3.codes.find((c) => c.code === '6210')).toEqual({
      code: '6210',
      name: 'Activități de realizare a soft-ului la comandă (software orientat client)',
      section: 'K',
    });
    expect(names3.has('8291')).toBe(true);
    expect(names3.has('6619')).toBe(true);
    expect(rev3.codes.find((c) => c.code === '9900')?.section).toBe('V');
  });

  it('the source file holds the whole structure: 22 sections, 87 divisions, 287 groups, 651 classes', () => {
    const rows = fs.readFileSync(path.join(SOURCES, 'CAEN-Rev.3.csv'), 'utf8').trim().split('\n').slice(1);
    const byLength = (n: number) => rows.filter((r) => r.split(';')[0].replace(/"/g, '').length === n).length;
    expect([byLength(1), byLength(2), byLength(3), byLength(4)]).toEqual([22, 87, 287, 651]);
  });

  it('CAEN Rev.2 keeps its 615 classes in 21 sections, no ids', () => {
    expect(rev2.revision).toBe(CAEN_REV2);
    expect(rev2.codes).toHaveLength(615);
    expect(codes2.size).toBe(615);
    expect(rev2.counts).toEqual({ sections: 21, classes: 615 });
    for (const c of rev2.codes) {
      expect(Object.keys(c)).toEqual(['code', 'name', 'section']);
      expect(c.section, c.code).toBe(sectionOfCode(c.code, CAEN_REV2));
    }
  });

  it('titles use ș ț with comma below and are single titles (no merged neighbour, no heading glued on)', () => {
    const all = [...rev3.codes, ...rev2.codes];
    for (const c of all) {
      expect(c.name, c.code).not.toMatch(/[şţŞŢ]|\u0327/);
      expect(c.name, c.code).toBe(c.name.trim());
      expect(c.name, c.code).not.toMatch(/\s\d{2,3}\s+[A-ZĂÂÎȘȚ]/); // "… turistică 80 Activități de investigații …"
      expect(c.name, c.code).not.toMatch(/(?<!\p{L})(\p{L}+) \1(?!\p{L})/u); // "de de"
    }
    const merged = rev3.codes.flatMap((c) => rev3.codes.filter((o) => o.name !== c.name && c.name.endsWith(` ${o.name}`)).map((o) => `${c.code} ends with ${o.code}`));
    expect(merged).toEqual([]);
    expect(names3.get('2020')).toBe('Fabricarea pesticidelor și a altor produse agrochimice');
    expect(names3.get('7990')).toBe('Alte servicii de rezervare și asistență turistică');
    expect(names3.get('2652')).toBe('Producția de ceasuri');
  });

  it('the correspondence maps every Rev.2 class to Rev.3 classes that exist', () => {
    expect(corr.retrieved).toBe('2026-11-28');
    expect(corr.counts).toEqual({ pairs: 933, rev2: 615, rev3: 650, splits: 124 });
    expect(corr.pairs).toHaveLength(933);
    expect(new Set(corr.pairs.map((p) => p.join('>'))).size).toBe(933);
    for (const [from, to] of corr.pairs) {
      expect(codes2.has(from), from).toBe(true);
      expect(names3.has(to), to).toBe(true);
    }
    for (const code of codes2) expect(targets(code).length, code).toBeGreaterThan(0);
    expect([...corr.pairs].sort((a, b) => a[0].localeCompare(b[0]) || a[1].localeCompare(b[1]))).toEqual(corr.pairs);
  });

  it('has the known moves: 6201→6210, 6202/6203→6220, psychotherapists 8690→8693, mail-order retail 4791 to the 47xx retail classes', () => {
    expect(targets('6201')).toEqual(['6210']);
    expect(targets('6202')).toEqual(['6220']);
    expect(targets('6203')).toEqual(['6220']);
    expect(targets('8690')).toContain('8693');
    const mailOrder = targets('4791');
    expect(mailOrder.some((t) => t !== '4791')).toBe(true);
    expect(mailOrder).toEqual(expect.arrayContaining(['4711', '4712', '4771', '4778']));
    expect(names3.get('4791')).toMatch(/^Intermedieri în comerțul cu amănuntul nespecializat/);
    expect(targets('4520')).toEqual(['9531', '9540']);
    expect(targets('0164')).toEqual(['0163']);
  });

  it('the seeds are what the importer makes of the source files', () => {
    const fromCsv = parseCaenCsv(fs.readFileSync(path.join(SOURCES, 'CAEN-Rev.3.csv'), 'utf8'));
    expect(fromCsv.codes).toEqual(rev3.codes);
    const pairs = parseCaenCorrespondenceCsv(fs.readFileSync(path.join(SOURCES, 'CAEN-Rev.2-Rev.3.csv'), 'utf8'), {
      rev2: { file: 'caen-rev2.json', codes: rev2.codes },
      rev3: { file: 'caen-rev3.json', codes: rev3.codes },
    });
    expect(pairs.pairs).toEqual(corr.pairs);
  });
});
