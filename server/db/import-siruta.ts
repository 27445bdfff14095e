/**
 * `npm run import:siruta`: the command that rewrites server/db/seed/localities.json from the INS SIRUTA file. How the file is read: server/db/siruta-file.ts; sources: server/db/sources/siruta/README.md.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { JUD_COUNTIES, decodeSirutaBytes, formatLocalitiesJson, parseSirutaCsv } from './siruta-file';

export { type CityKind, type CountyEntry, JUD_COUNTIES, type LocalitiesFile, type LocalityEntry, type ParseOptions, countsOf, countySirutaCode, decodeSirutaBytes, formatLocalitiesJson, isValidSirutaCode, modernSpelling, normaliseDiacritics, parseSirutaCsv, postalCodeOf, titleCaseRo } from './siruta-file';

function usage(): string {
  return [
    'Usage: npm run import:siruta -- <siruta.csv> [--out <localities.json>] [--with-villages] [--source "where the file comes from"]',
    '',
    'Reads the SIRUTA CSV of INS (data.gov.ro; UTF-8 or ISO-8859-2/Windows-1250, comma- or',
    'semicolon-separated) and writes the counties with every municipiu, oraș, comună and sector',
    '(and, with --with-villages, every village) to server/db/seed/localities.json or --out.',
  ].join('\n');
}

export function main(argv: string[]): number {
  let input: string | undefined;
  let out = path.join(path.dirname(fileURLToPath(import.meta.url)), 'seed', 'localities.json');
  let withVillages = false;
  let source: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') {
      console.log(usage());
      return 0;
    } else if (arg === '--source') {
      source = argv[++i];
    } else if (arg === '--with-villages') {
      withVillages = true;
    } else if (arg === '--out' || arg === '-o') {
      const value = argv[++i];
      if (!value) {
        console.error('--out needs a file name\n\n' + usage());
        return 2;
      }
      out = path.resolve(value);
    } else if (arg.startsWith('--out=')) {
      out = path.resolve(arg.slice('--out='.length));
    } else if (arg.startsWith('-')) {
      console.error(`Unknown option ${arg}\n\n${usage()}`);
      return 2;
    } else if (input === undefined) {
      input = arg;
    } else {
      console.error(`Only one input file, got ${input} and ${arg}\n\n${usage()}`);
      return 2;
    }
  }
  if (!input) {
    console.error(usage());
    return 2;
  }

  const text = decodeSirutaBytes(fs.readFileSync(input));
  source ??=
    `Official SIRUTA register of INS (data.gov.ro, file ${path.basename(input)}), imported by ` +
    '`npm run import:siruta`: every county with its municipalities, towns, communes and the sectors of București' +
    (withVillages ? ', and the villages of each.' : '.');
  const file = parseSirutaCsv(text, { withVillages, source });

  const counts = new Map<string, number>();
  for (const c of file.counties) for (const city of c.cities) counts.set(city.kind, (counts.get(city.kind) ?? 0) + 1);
  const missing = Object.values(JUD_COUNTIES)
    .filter((k) => !file.counties.some((c) => c.code === k.code))
    .map((k) => k.code);

  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, formatLocalitiesJson(file));
  console.log(
    `Wrote ${out}: ${file.counties.length} counties, ` +
      [...counts.entries()].map(([kind, n]) => `${n} ${kind}`).join(', ') +
      (missing.length ? ` (counties missing from the file: ${missing.join(', ')})` : ''),
  );
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
