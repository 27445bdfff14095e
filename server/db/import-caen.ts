/**
 * Imports the CAEN nomenclature (INS, "Clasificarea activităților din economia națională") into
 * `server/db/seed/caen.json`, keeping the classes (4-digit codes).
 *
 *   npm run import:caen -- path/to/caen.csv [--out server/db/seed/caen.json] [--revision "CAEN Rev.2"]
 *
 * Expected input: the nomenclature as a delimited text file (the CSV/TXT export of the INS
 * structure, or the table of the ONRC page copied into a spreadsheet and saved as CSV), with a
 * header row and at least a code and a name column:
 *
 *   COD;DENUMIRE
 *   A;AGRICULTURĂ, SILVICULTURĂ ȘI PESCUIT
 *   01;Agricultură, vânătoare și servicii anexe
 *   011;Cultivarea plantelor nepermanente
 *   0111;Cultivarea cerealelor (exclusiv orez), plantelor leguminoase și a plantelor producătoare de semințe oleaginoase
 *   ...
 *
 * - Separator: `;`, `,` or tab (the one of the header row). Fields may be quoted ("…", "" inside).
 * - Encoding: UTF-8 (with or without BOM); older INS files in Windows-1250 / ISO-8859-2 are decoded too.
 * - Columns are found by header name, case- and diacritic-insensitive: the code in `COD`, `COD CAEN`,
 *   `CAEN`, `CLASA` or `CODE`; the name in `DENUMIRE`, `DENUMIRE CAEN`, `NAME` or `DESCRIERE`; an
 *   optional `SECTIUNE` / `SECTION` column gives the section letter.
 * - Rows of every level may be present: a section row (one letter A–U) sets the section of the
 *   rows after it; divisions (2 digits) and groups (3 digits) are skipped; classes (4 digits, also
 *   written "62.01") are kept. Without section rows or column, the section follows from the division.
 * - Names are trimmed, cedilla ş/ţ become comma-below ș/ț, upper-case names are left as they are.
 *
 * Output: `{ "$comment", "source", "revision", "codes": [{ id, code, name, section }] }`, codes in
 * ascending order; `id` is the code's number (6201 → 6201), so ids stay stable across imports.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeCentralEuropean, splitCsvLine } from './csv';

export interface CaenEntry {
  id: number;
  code: string;
  name: string;
  section: string;
}

export interface CaenFile {
  $comment?: string;
  source: string;
  revision: string;
  codes: CaenEntry[];
}

/** NACE Rev.2 / CAEN Rev.2 sections by their first and last division. */
const SECTIONS: Array<[string, number, number]> = [
  ['A', 1, 3], ['B', 5, 9], ['C', 10, 33], ['D', 35, 35], ['E', 36, 39], ['F', 41, 43], ['G', 45, 47],
  ['H', 49, 53], ['I', 55, 56], ['J', 58, 63], ['K', 64, 66], ['L', 68, 68], ['M', 69, 75], ['N', 77, 82],
  ['O', 84, 84], ['P', 85, 85], ['Q', 86, 88], ['R', 90, 93], ['S', 94, 96], ['T', 97, 98], ['U', 99, 99],
];

/** The section letter of a 4-digit Rev.2 code, from its division. */
export function sectionOfCode(code: string): string | null {
  const division = Number(code.slice(0, 2));
  return SECTIONS.find(([, from, to]) => division >= from && division <= to)?.[0] ?? null;
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

export function parseCaenCsv(text: string, options: { source?: string; revision?: string } = {}): CaenFile {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  if (!lines.length) throw new Error('The CAEN file is empty.');
  const header = lines[0];
  const delimiter = [';', '\t', ','].find((d) => header.includes(d));
  if (!delimiter) throw new Error('No separator (";", "," or tab) in the header row.');
  const columns = splitCsvLine(header, delimiter).map(key);
  const codeAt = columns.findIndex((c) => CODE_HEADERS.includes(c));
  const nameAt = columns.findIndex((c) => NAME_HEADERS.includes(c));
  const sectionAt = columns.findIndex((c) => SECTION_HEADERS.includes(c));
  if (codeAt < 0 || nameAt < 0) throw new Error(`Header must name a code and a name column (found: ${columns.join(', ')}).`);

  const byCode = new Map<string, CaenEntry>();
  let section: string | null = null;
  for (const [i, line] of lines.slice(1).entries()) {
    const fields = splitCsvLine(line, delimiter);
    const rawCode = (fields[codeAt] ?? '').replace(/[.\s]/g, '').toUpperCase();
    const name = normaliseName(fields[nameAt] ?? '');
    if (/^[A-U]$/.test(rawCode)) {
      section = rawCode;
      continue;
    }
    if (!/^\d{4}$/.test(rawCode)) continue; // divisions, groups, notes
    if (!name) throw new Error(`Line ${i + 2}: code ${rawCode} has no name.`);
    const fromColumn = sectionAt >= 0 ? (fields[sectionAt] ?? '').trim().charAt(0).toUpperCase() : '';
    const entrySection = fromColumn || section || sectionOfCode(rawCode);
    if (!entrySection) throw new Error(`Line ${i + 2}: no section for code ${rawCode}.`);
    if (byCode.has(rawCode)) throw new Error(`Line ${i + 2}: code ${rawCode} appears twice.`);
    byCode.set(rawCode, { id: Number(rawCode), code: rawCode, name, section: entrySection });
  }
  if (!byCode.size) throw new Error('No 4-digit CAEN classes found.');
  return {
    source: options.source ?? 'CAEN nomenclature (INS)',
    revision: options.revision ?? 'CAEN Rev.2',
    codes: [...byCode.values()].sort((a, b) => a.code.localeCompare(b.code)),
  };
}

/** One code per line, so diffs of the seed stay readable. */
export function formatCaenJson(file: CaenFile): string {
  const head = {
    $comment:
      file.$comment ??
      'CAEN classes (4-digit codes) offered in the overview step (spec 001 §2 item 4, §5). Generated by `npm run import:caen`; ids are the code numbers and must stay stable.',
    source: file.source,
    revision: file.revision,
  };
  const lines = file.codes.map((c) => `    ${JSON.stringify(c)}`);
  const start = JSON.stringify(head, null, 2).replace(/\n}$/, '');
  return `${start},\n  "codes": [\n${lines.join(',\n')}\n  ]\n}\n`;
}

function usage(): string {
  return 'Usage: npm run import:caen -- <caen.csv> [--out server/db/seed/caen.json] [--revision "CAEN Rev.2"] [--source "text"]';
}

export function main(argv: string[]): number {
  let out = path.join(path.dirname(fileURLToPath(import.meta.url)), 'seed', 'caen.json');
  let revision = 'CAEN Rev.2';
  let source: string | undefined;
  let input: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--out') out = argv[++i];
    else if (arg === '--revision') revision = argv[++i];
    else if (arg === '--source') source = argv[++i];
    else if (arg === '--help' || arg === '-h') {
      console.log(usage());
      return 0;
    } else if (!arg.startsWith('--') && !input) input = arg;
    else {
      console.error(`Unknown argument ${arg}\n${usage()}`);
      return 2;
    }
  }
  if (!input || !out) {
    console.error(usage());
    return 2;
  }
  const file = parseCaenCsv(decodeCaenBytes(fs.readFileSync(input)), {
    revision,
    source: source ?? `CAEN nomenclature of INS (file ${path.basename(input)}), imported by \`npm run import:caen\`: the ${revision} classes.`,
  });
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, formatCaenJson(file));
  const sections = new Set(file.codes.map((c) => c.section));
  console.log(`Wrote ${out}: ${file.codes.length} classes in ${sections.size} sections (${revision}).`);
  return 0;
}

const invokedDirectly = process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (invokedDirectly) {
  try {
    process.exitCode = main(process.argv.slice(2));
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    process.exitCode = 1;
  }
}
