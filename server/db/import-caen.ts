/**
 * `npm run import:caen`: the command that rewrites the CAEN seed files (server/db/seed/caen-*.json). What the files hold and how an INS table is read: server/db/caen-file.ts; sources: server/db/sources/caen/README.md.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CAEN_REV2, countCodes, countPairs, today, CAEN_REV3, type CaenCheckList, type CaenFile, decodeCaenBytes, formatCaenCorrespondenceJson, formatCaenJson, parseCaenCorrespondenceCsv, parseCaenCsv, parseCaenSeedJson } from './caen-file';

export { CAEN_REV2, CAEN_REV3, type CaenCheckList, type CaenCorrespondenceFile, type CaenEntry, type CaenFile, decodeCaenBytes, formatCaenCorrespondenceJson, formatCaenJson, normaliseName, parseCaenCorrespondenceCsv, parseCaenCsv, parseCaenSeedJson, sectionLetters, sectionOfCode } from './caen-file';

function usage(): string {
  return [
    'Usage: npm run import:caen -- <caen.csv | seed.json> [--revision "CAEN Rev.3"] [--out server/db/seed/caen-rev3.json] [--source "text"] [--retrieved YYYY-MM-DD]',
    '       npm run import:caen -- --correspondence <rev2-rev3.csv> [--out server/db/seed/caen-rev2-rev3.json]',
    '                              [--check-against server/db/seed/caen-rev2.json,server/db/seed/caen-rev3.json | --no-check] [--source "text"] [--retrieved YYYY-MM-DD]',
  ].join('\n');
}

const seedDir = () => path.join(path.dirname(fileURLToPath(import.meta.url)), 'seed');

/** caen-rev3.json for "CAEN Rev.3", caen-rev2.json for "CAEN Rev.2"; null for a revision without a number. */
function defaultClassesOut(revision: string): string | null {
  const n = /rev\.?\s*(\d+)/i.exec(revision)?.[1];
  return n ? path.join(seedDir(), `caen-rev${n}.json`) : null;
}

function readCheckList(file: string, revision: string): CaenCheckList {
  const json = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<CaenFile>;
  if (json.revision !== revision) throw new Error(`${file}: expected the ${revision} class list, found ${json.revision ?? 'no revision'}.`);
  if (!Array.isArray(json.codes)) throw new Error(`${file}: no "codes" list.`);
  return { file: path.basename(file), codes: json.codes };
}

export function main(argv: string[]): number {
  let out: string | undefined;
  let revision: string | undefined;
  let source: string | undefined;
  let retrieved: string | undefined;
  let input: string | undefined;
  let correspondence: string | undefined;
  let checkAgainst: string | undefined;
  let check = true;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined || v.startsWith('--')) throw new Error(`${arg} needs a value.\n${usage()}`);
      return v;
    };
    if (arg === '--out') out = value();
    else if (arg === '--revision') revision = value();
    else if (arg === '--source') source = value();
    else if (arg === '--retrieved') retrieved = value();
    else if (arg === '--correspondence') correspondence = value();
    else if (arg === '--check-against') checkAgainst = value();
    else if (arg === '--no-check') check = false;
    else if (arg === '--help' || arg === '-h') {
      console.log(usage());
      return 0;
    } else if (!arg.startsWith('--') && !input) input = arg;
    else {
      console.error(`Unknown argument ${arg}\n${usage()}`);
      return 2;
    }
  }
  if (retrieved !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(retrieved)) {
    console.error(`--retrieved must be a date YYYY-MM-DD (got ${retrieved}).`);
    return 2;
  }

  if (correspondence) {
    if (input || revision) {
      console.error(`--correspondence takes no class list nor --revision.\n${usage()}`);
      return 2;
    }
    let lists: [string, string] | null = null;
    if (checkAgainst && !check) {
      console.error('--check-against and --no-check exclude each other.');
      return 2;
    }
    if (checkAgainst) {
      const files = checkAgainst.split(',').map((f) => f.trim());
      if (files.length !== 2 || files.some((f) => !f)) {
        console.error('--check-against takes two files separated by a comma: the Rev.2 list, then the Rev.3 list.');
        return 2;
      }
      lists = [files[0], files[1]];
    } else if (check) {
      const defaults: [string, string] = [path.join(seedDir(), 'caen-rev2.json'), path.join(seedDir(), 'caen-rev3.json')];
      if (defaults.every((f) => fs.existsSync(f))) lists = defaults;
      else console.warn(`Not checked against the class lists: ${defaults.filter((f) => !fs.existsSync(f)).join(', ')} missing.`);
    }
    const file = parseCaenCorrespondenceCsv(decodeCaenBytes(fs.readFileSync(correspondence)), {
      source: source ?? `CAEN Rev.2 → CAEN Rev.3 correspondence (file ${path.basename(correspondence)}), imported by \`npm run import:caen\`.`,
      retrieved: retrieved ?? today(),
      rev2: lists ? readCheckList(lists[0], CAEN_REV2) : undefined,
      rev3: lists ? readCheckList(lists[1], CAEN_REV3) : undefined,
    });
    const target = out ?? path.join(seedDir(), 'caen-rev2-rev3.json');
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, formatCaenCorrespondenceJson(file));
    const c = countPairs(file.pairs);
    console.log(
      `Wrote ${target}: ${c.pairs} pairs, ${c.rev2} Rev.2 classes → ${c.rev3} Rev.3 classes (${c.rev2 - c.splits} one target, ${c.splits} split)${lists ? `, checked against ${lists.map((f) => path.basename(f)).join(' and ')}` : ''}.`,
    );
    if (lists) {
      const reached = new Set(file.pairs.map(([, rev3]) => rev3));
      const unreached = readCheckList(lists[1], CAEN_REV3).codes.filter((c3) => !reached.has(c3.code));
      if (unreached.length) console.log(`Rev.3 classes that no Rev.2 class maps to: ${unreached.map((c3) => c3.code).join(', ')}.`);
    }
    return 0;
  }

  if (!input) {
    console.error(usage());
    return 2;
  }
  const file = input.toLowerCase().endsWith('.json')
    ? parseCaenSeedJson(fs.readFileSync(input, 'utf8'), { revision, source, retrieved })
    : parseCaenCsv(decodeCaenBytes(fs.readFileSync(input)), {
        revision: revision ?? CAEN_REV3,
        retrieved,
        source: source ?? `CAEN nomenclature of INS (file ${path.basename(input)}), imported by \`npm run import:caen\`: the ${revision ?? CAEN_REV3} classes.`,
      });
  file.retrieved ??= today();
  const target = out ?? defaultClassesOut(file.revision);
  if (!target) {
    console.error(`No default output for revision "${file.revision}": give --out.`);
    return 2;
  }
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.writeFileSync(target, formatCaenJson(file));
  const counts = countCodes(file.codes);
  console.log(`Wrote ${target}: ${counts.classes} classes in ${counts.sections} sections (${file.revision}).`);
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
