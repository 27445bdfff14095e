/**
 * Imports the CAEN nomenclature (INS, "Clasificarea activităților din economia națională") into the
 * seed files the database loads, and the official Rev.2 → Rev.3 correspondence.
 *
 * Class list (default revision CAEN Rev.3, the one in force at the trade register since 1 January 2025):
 *
 *   npm run import:caen -- server/db/sources/caen/CAEN-Rev.3.csv                  → server/db/seed/caen-rev3.json
 *   npm run import:caen -- path/to/caen-rev2.csv --revision "CAEN Rev.2"          → server/db/seed/caen-rev2.json
 *   options: [--out file.json] [--source "text"] [--retrieved YYYY-MM-DD]
 *
 * Expected input: the nomenclature as a delimited text file (the CSV/TXT export of the INS
 * structure, or the table of the ONRC page copied into a spreadsheet and saved as CSV), with a
 * header row and at least a code and a name column:
 *
 *   COD;DENUMIRE
 *   A;AGRICULTURĂ, SILVICULTURĂ ȘI PESCUIT
 *   01;Agricultură, vânătoare și servicii anexe
 *   011;Cultivarea plantelor nepermanente
 *   0111;Cultivarea cerealelor (excluzând orezul), plantelor leguminoase și a plantelor oleaginoase
 *   ...
 *
 * - Separator: `;`, `,` or tab (the one of the header row). Fields may be quoted ("…", "" inside).
 * - Encoding: UTF-8 (with or without BOM); older INS files in Windows-1250 / ISO-8859-2 are decoded too.
 * - Columns are found by header name, case- and diacritic-insensitive: the code in `COD`, `COD CAEN`,
 *   `CAEN`, `CLASA` or `CODE`; the name in `DENUMIRE`, `DENUMIRE CAEN`, `NAME` or `DESCRIERE`; an
 *   optional `SECTIUNE` / `SECTION` column gives the section letter. Other columns are ignored.
 * - Rows of every level may be present: a section row (one letter, A–V in Rev.3, A–U in Rev.2) sets
 *   the section of the rows after it; divisions (2 digits) and groups (3 digits) are skipped; classes
 *   (4 digits, also written "62.01") are kept. Without section rows or column, the section follows
 *   from the division by the section table of the revision (SECTIONS below); when both are there
 *   they must agree, so a file of the other revision is refused.
 * - Names are trimmed, cedilla ş/ţ become comma-below ș/ț, upper-case names are left as they are.
 * - A seed file (`.json`, this format or the older one with ids) is accepted as input as well: it
 *   is checked and rewritten in the current format, keeping its `source` unless --source is given.
 *
 * Output: `{ "$comment", "source", "retrieved", "revision", "counts": { "sections", "classes" },
 * "codes": [{ code, name, section }] }`, one code per line in ascending order. There are no ids:
 * the database derives them from the revision and the code.
 *
 * Correspondence (the ONRC/INS table "Corespondența CAEN Rev.2 – CAEN Rev.3"):
 *
 *   npm run import:caen -- --correspondence server/db/sources/caen/CAEN-Rev.2-Rev.3.csv
 *   options: [--out server/db/seed/caen-rev2-rev3.json] [--check-against rev2.json,rev3.json | --no-check]
 *            [--source "text"] [--retrieved YYYY-MM-DD]
 *
 * Input: a header row naming a `REV2` and a `REV3` column (also `CAEN Rev.2`, `CAEN Rev.3`; other
 * columns such as `OBS` or `NOTE` are ignored), then one row per pair of 4-digit classes; a Rev.2
 * class split over several Rev.3 classes has several rows. Output: `{ "$comment", "source",
 * "retrieved", "counts": { "pairs", "rev2", "rev3", "splits" }, "pairs": [["6201","6210"], …] }`,
 * one pair per line, sorted. Every code is checked against the class lists (by default
 * server/db/seed/caen-rev2.json and caen-rev3.json when they exist): a code that is not a class of
 * its revision, a pair given twice and a Rev.2 class without any Rev.3 target are refused, each
 * message naming the line.
 */
import { decodeCentralEuropean, splitCsvLine } from './csv';

export const CAEN_REV2 = 'CAEN Rev.2';
export const CAEN_REV3 = 'CAEN Rev.3';

export interface CaenEntry {
  code: string;
  name: string;
  section: string;
}

export interface CaenFile {
  $comment?: string;
  source: string;
  /** The day the source was retrieved (YYYY-MM-DD). */
  retrieved?: string;
  revision: string;
  counts?: { sections: number; classes: number };
  codes: CaenEntry[];
}

export interface CaenCorrespondenceFile {
  $comment?: string;
  source: string;
  retrieved?: string;
  /** pairs; distinct Rev.2 and Rev.3 codes; Rev.2 classes with more than one Rev.3 target. */
  counts?: { pairs: number; rev2: number; rev3: number; splits: number };
  /** [Rev.2 class, Rev.3 class], sorted. */
  pairs: Array<[string, string]>;
}

/**
 * The sections of each revision by their first and last division: NACE Rev.2 / CAEN Rev.2 (A–U)
 * and NACE Rev.2.1 / CAEN Rev.3 (A–V: trade loses the repair of vehicles, which moves to T 95;
 * information and communication splits into J publishing/broadcasting and K telecommunications/IT).
 */
const SECTIONS: Record<string, Array<[string, number, number]>> = {
  [CAEN_REV2]: [
    ['A', 1, 3], ['B', 5, 9], ['C', 10, 33], ['D', 35, 35], ['E', 36, 39], ['F', 41, 43], ['G', 45, 47],
    ['H', 49, 53], ['I', 55, 56], ['J', 58, 63], ['K', 64, 66], ['L', 68, 68], ['M', 69, 75], ['N', 77, 82],
    ['O', 84, 84], ['P', 85, 85], ['Q', 86, 88], ['R', 90, 93], ['S', 94, 96], ['T', 97, 98], ['U', 99, 99],
  ],
  [CAEN_REV3]: [
    ['A', 1, 3], ['B', 5, 9], ['C', 10, 33], ['D', 35, 35], ['E', 36, 39], ['F', 41, 43], ['G', 46, 47],
    ['H', 49, 53], ['I', 55, 56], ['J', 58, 60], ['K', 61, 63], ['L', 64, 66], ['M', 68, 68], ['N', 69, 75],
    ['O', 77, 82], ['P', 84, 84], ['Q', 85, 85], ['R', 86, 88], ['S', 90, 93], ['T', 94, 96], ['U', 97, 98],
    ['V', 99, 99],
  ],
};

/** The section letters of a revision (A–U for Rev.2, A–V for Rev.3); null for a revision without a table. */
export function sectionLetters(revision: string): string[] | null {
  return SECTIONS[revision]?.map(([letter]) => letter) ?? null;
}

/** The section letter of a 4-digit code (or a 2-digit division) in a revision, from its division. */
export function sectionOfCode(code: string, revision: string = CAEN_REV3): string | null {
  const division = Number(code.slice(0, 2));
  return SECTIONS[revision]?.find(([, from, to]) => division >= from && division <= to)?.[0] ?? null;
}

/** The bytes of an INS CAEN file as text (UTF-8 or the Central European encodings). */
export const decodeCaenBytes = decodeCentralEuropean;

const key = (s: string) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[_\s]+/g, ' ').trim();

const CODE_HEADERS = ['cod', 'cod caen', 'caen', 'clasa', 'code'];
const NAME_HEADERS = ['denumire', 'denumire caen', 'name', 'descriere', 'denumirea'];
const SECTION_HEADERS = ['sectiune', 'sectiunea', 'section'];

/** Comma-below ș ț instead of the cedilla forms older files use. */
export function normaliseName(name: string): string {
  return name.replace(/ş/g, 'ș').replace(/Ş/g, 'Ș').replace(/ţ/g, 'ț').replace(/Ţ/g, 'Ț').replace(/\s+/g, ' ').trim();
}

/** The day a file is imported, as the default of `retrieved`. */
export const today = () => new Date().toISOString().slice(0, 10);

interface TextLine {
  /** 1-based line number in the file. */
  number: number;
  text: string;
}

/** The non-empty lines of a delimited file, the header first, with their line numbers and the separator. */
function readTable(text: string, what: string): { header: string[]; delimiter: string; rows: TextLine[] } {
  const lines = text
    .split(/\r?\n/)
    .map((line, i) => ({ number: i + 1, text: line }))
    .filter((l) => l.text.trim() !== '');
  if (!lines.length) throw new Error(`The ${what} file is empty.`);
  const delimiter = [';', '\t', ','].find((d) => lines[0].text.includes(d));
  if (!delimiter) throw new Error('No separator (";", "," or tab) in the header row.');
  return { header: splitCsvLine(lines[0].text, delimiter).map(key), delimiter, rows: lines.slice(1) };
}

/** One row of a class list: where it comes from (for messages), its code as written, name and section. */
interface CaenRecord {
  where: string;
  code: string;
  name: string;
  section?: string;
}

function buildCaenFile(records: CaenRecord[], options: { source?: string; revision?: string; retrieved?: string }): CaenFile {
  const revision = options.revision ?? CAEN_REV3;
  const letters = sectionLetters(revision);
  const byCode = new Map<string, CaenEntry>();
  let section: string | null = null;
  for (const record of records) {
    const code = record.code.replace(/[.\s]/g, '').toUpperCase();
    const name = normaliseName(record.name);
    if (/^[A-Z]$/.test(code)) {
      if (letters && !letters.includes(code)) {
        throw new Error(`${record.where}: section ${code} is not a section of ${revision} (${letters[0]}–${letters[letters.length - 1]}).`);
      }
      section = code;
      continue;
    }
    if (!/^\d{4}$/.test(code)) continue; // divisions, groups, notes
    if (!name) throw new Error(`${record.where}: code ${code} has no name.`);
    const given = (record.section ?? '').trim().charAt(0).toUpperCase() || section;
    const derived = sectionOfCode(code, revision);
    if (letters && !derived) throw new Error(`${record.where}: code ${code}: division ${code.slice(0, 2)} is not a division of ${revision}.`);
    if (given && derived && given !== derived) {
      throw new Error(
        `${record.where}: code ${code} is given under section ${given}, but division ${code.slice(0, 2)} belongs to section ${derived} in ${revision} (a file of another revision?).`,
      );
    }
    const entrySection = given || derived;
    if (!entrySection) throw new Error(`${record.where}: no section for code ${code}.`);
    if (byCode.has(code)) throw new Error(`${record.where}: code ${code} appears twice.`);
    byCode.set(code, { code, name, section: entrySection });
  }
  if (!byCode.size) throw new Error('No 4-digit CAEN classes found.');
  const codes = [...byCode.values()].sort((a, b) => a.code.localeCompare(b.code));
  return {
    source: options.source ?? 'CAEN nomenclature (INS)',
    retrieved: options.retrieved,
    revision,
    counts: countCodes(codes),
    codes,
  };
}

export const countCodes = (codes: CaenEntry[]) => ({ sections: new Set(codes.map((c) => c.section)).size, classes: codes.length });

export function parseCaenCsv(text: string, options: { source?: string; revision?: string; retrieved?: string } = {}): CaenFile {
  const { header, delimiter, rows } = readTable(text, 'CAEN');
  const codeAt = header.findIndex((c) => CODE_HEADERS.includes(c));
  const nameAt = header.findIndex((c) => NAME_HEADERS.includes(c));
  const sectionAt = header.findIndex((c) => SECTION_HEADERS.includes(c));
  if (codeAt < 0 || nameAt < 0) throw new Error(`Header must name a code and a name column (found: ${header.join(', ')}).`);
  const records = rows.map(({ number, text: line }): CaenRecord => {
    const fields = splitCsvLine(line, delimiter);
    return { where: `Line ${number}`, code: fields[codeAt] ?? '', name: fields[nameAt] ?? '', section: sectionAt >= 0 ? fields[sectionAt] : undefined };
  });
  return buildCaenFile(records, options);
}

/**
 * A seed file read back (this format, or the older one whose codes carried an `id`): checked again
 * and returned in the current format. Its revision and source are kept unless options give others.
 */
export function parseCaenSeedJson(text: string, options: { source?: string; revision?: string; retrieved?: string } = {}): CaenFile {
  const json = JSON.parse(text) as Partial<CaenFile> & { codes?: Array<Partial<CaenEntry>> };
  if (!Array.isArray(json.codes)) throw new Error('The seed file has no "codes" list.');
  const records = json.codes.map((c, i): CaenRecord => ({ where: `Entry ${i + 1}`, code: String(c.code ?? ''), name: String(c.name ?? ''), section: c.section }));
  return buildCaenFile(records, {
    source: options.source ?? json.source,
    revision: options.revision ?? json.revision,
    retrieved: options.retrieved ?? json.retrieved,
  });
}

/** One code per line, so diffs of the seed stay readable. */
export function formatCaenJson(file: CaenFile): string {
  const head = {
    $comment:
      file.$comment ??
      `${file.revision} classes (4-digit codes) offered in the overview step (spec 001 §2 item 4, §5). Generated by \`npm run import:caen\` (server/db/import-caen.ts); no ids: the database derives them from the revision and the code.`,
    source: file.source,
    retrieved: file.retrieved,
    revision: file.revision,
    counts: countCodes(file.codes),
  };
  const lines = file.codes.map((c) => `    ${JSON.stringify({ code: c.code, name: c.name, section: c.section })}`);
  const start = JSON.stringify(head, null, 2).replace(/\n}$/, '');
  return `${start},\n  "codes": [\n${lines.join(',\n')}\n  ]\n}\n`;
}

/** Header names of the two code columns of a correspondence file, compared without spaces and dots. */
const compact = (s: string) => key(s).replace(/[^a-z0-9]/g, '');
const REV2_HEADERS = ['rev2', 'caenrev2', 'codrev2', 'codcaenrev2', 'nace2', 'nacerev2'];
const REV3_HEADERS = ['rev3', 'caenrev3', 'codrev3', 'codcaenrev3', 'nace21', 'nacerev21'];

/** The classes a correspondence is checked against, with the name of the file they came from. */
export interface CaenCheckList {
  file: string;
  codes: CaenEntry[];
}

/**
 * Reads the Rev.2 → Rev.3 table. With `rev2` / `rev3` lists, every code must be a class of its
 * list and every Rev.2 class must have a target. All problems are reported at once, each naming its line.
 */
export function parseCaenCorrespondenceCsv(
  text: string,
  options: { source?: string; retrieved?: string; rev2?: CaenCheckList; rev3?: CaenCheckList } = {},
): CaenCorrespondenceFile {
  const { header, delimiter, rows } = readTable(text, 'correspondence');
  const rev2At = header.findIndex((c) => REV2_HEADERS.includes(compact(c)));
  const rev3At = header.findIndex((c) => REV3_HEADERS.includes(compact(c)));
  if (rev2At < 0 || rev3At < 0) throw new Error(`Header must name a REV2 and a REV3 column (found: ${header.join(', ')}).`);
  const known2 = options.rev2 && new Map(options.rev2.codes.map((c) => [c.code, c]));
  const known3 = options.rev3 && new Map(options.rev3.codes.map((c) => [c.code, c]));
  const errors: string[] = [];
  const lineOf = new Map<string, number>();
  for (const { number, text: line } of rows) {
    const fields = splitCsvLine(line, delimiter);
    const rev2 = (fields[rev2At] ?? '').replace(/[.\s]/g, '');
    const rev3 = (fields[rev3At] ?? '').replace(/[.\s]/g, '');
    const problems: string[] = [];
    if (!/^\d{4}$/.test(rev2)) problems.push(rev2 ? `Rev.2 code "${rev2}" is not a 4-digit class` : 'no Rev.2 code');
    else if (known2 && !known2.has(rev2)) problems.push(`${rev2} is not a class of CAEN Rev.2 (${options.rev2?.file})`);
    if (!/^\d{4}$/.test(rev3)) problems.push(rev3 ? `Rev.3 code "${rev3}" is not a 4-digit class` : 'no Rev.3 code');
    else if (known3 && !known3.has(rev3)) problems.push(`${rev3} is not a class of CAEN Rev.3 (${options.rev3?.file})`);
    if (problems.length) {
      errors.push(`Line ${number}: ${problems.join('; ')}.`);
      continue;
    }
    const pair = `${rev2}>${rev3}`;
    const first = lineOf.get(pair);
    if (first !== undefined) errors.push(`Line ${number}: the pair ${rev2} → ${rev3} is already on line ${first}.`);
    else lineOf.set(pair, number);
  }
  const pairs = [...lineOf.keys()].map((p) => p.split('>') as [string, string]).sort((a, b) => a[0].localeCompare(b[0]) || a[1].localeCompare(b[1]));
  if (known2) {
    const mapped = new Set(pairs.map(([rev2]) => rev2));
    for (const c of known2.values()) {
      if (!mapped.has(c.code)) errors.push(`Rev.2 class ${c.code} (${c.name}) has no Rev.3 target: add a line "${c.code};<Rev.3 class>".`);
    }
  }
  if (errors.length) {
    const shown = errors.slice(0, 40);
    if (errors.length > shown.length) shown.push(`… and ${errors.length - shown.length} more.`);
    throw new Error(`The correspondence file has ${errors.length} problem(s):\n${shown.join('\n')}`);
  }
  if (!pairs.length) throw new Error('No Rev.2 → Rev.3 pairs found.');
  return {
    source: options.source ?? 'CAEN Rev.2 → CAEN Rev.3 correspondence (INS / ONRC)',
    retrieved: options.retrieved,
    counts: countPairs(pairs),
    pairs,
  };
}

export function countPairs(pairs: Array<[string, string]>) {
  const targets = new Map<string, number>();
  for (const [rev2] of pairs) targets.set(rev2, (targets.get(rev2) ?? 0) + 1);
  return {
    pairs: pairs.length,
    rev2: targets.size,
    rev3: new Set(pairs.map(([, rev3]) => rev3)).size,
    splits: [...targets.values()].filter((n) => n > 1).length,
  };
}

/** One pair per line. */
export function formatCaenCorrespondenceJson(file: CaenCorrespondenceFile): string {
  const head = {
    $comment:
      file.$comment ??
      'CAEN Rev.2 → CAEN Rev.3 correspondence: [Rev.2 class, Rev.3 class] pairs; a Rev.2 class split over several Rev.3 classes has several pairs. Generated by `npm run import:caen -- --correspondence` (server/db/import-caen.ts).',
    source: file.source,
    retrieved: file.retrieved,
    counts: countPairs(file.pairs),
  };
  const lines = file.pairs.map((p) => `    ${JSON.stringify(p)}`);
  const start = JSON.stringify(head, null, 2).replace(/\n}$/, '');
  return `${start},\n  "pairs": [\n${lines.join(',\n')}\n  ]\n}\n`;
}
