/**
 * No copy outside the locale files (issue 33, DESIGN.md "every string through i18next; en complete
 * too"): a Romanian text written into the browser app's or a widget's code would show in Romanian
 * to an English reader. This scans the string literals, template texts and JSX texts (comments are
 * no tokens, so they never count) of src/ and widgets/ for Romanian: a letter of its own (ă â î ș ț)
 * or one of its small words that English does not use (și, sau, este, pentru, …) among several words.
 * What may stay is listed in ALLOWED, with why: names that are the same in both languages, and sample
 * or register data that is Romanian whatever the reader's language.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '../..');
const SCANNED = ['src', 'widgets'];

const DIACRITICS = /[ăâîșțşţĂÂÎȘȚŞŢ]/;
/** Words of Romanian copy without diacritics that English copy does not have. */
const ROMANIAN_WORDS = /(?:^|[^\p{L}])(si|sau|este|sunt|pentru|nu|din|cu|de|pe|la|ai|te|ta|tau|care|mai|prin|dupa|fara|sa|Pasul|Dosarul|Alege|Trimite|Salveaz|Incarc)(?=$|[^\p{L}])/u;

/** Romanian allowed in code: a file (every text in it) or a file and one text. */
const ALLOWED: { file: string; text?: string; why: string }[] = [
  { file: 'src/shared/language.ts', text: 'Română', why: "the language switch names Romanian in its own words, in either language (like 'English')" },
  { file: 'src/pages/staff/preview/PreviewPage.tsx', text: 'Română', why: "the preview's language choice names Romanian in its own words (like 'English')" },
  { file: 'src/pages/staff/preview/preview-services.ts', why: "the preview's sample applicant data (a firm, its CAEN codes, an address): data, Romanian whatever the language, like a real applicant's" },
  { file: 'src/core/counties.ts', why: 'the counties of the SIRUTA register and the words of its locality names: proper names, the same in both languages' },
];

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(rel);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [rel] : [];
  });
}

/** Every text of a source file a reader could see: string literals, template parts and JSX text, with its line. */
function texts(file: string): { text: string; line: number }[] {
  const source = ts.createSourceFile(file, fs.readFileSync(path.join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: { text: string; line: number }[] = [];
  const visit = (node: ts.Node) => {
    const isModuleName = ts.isImportDeclaration(node.parent) || ts.isExportDeclaration(node.parent) || ts.isExternalModuleReference(node.parent) || (ts.isCallExpression(node.parent) && node.parent.expression.kind === ts.SyntaxKind.ImportKeyword);
    if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateLiteralToken(node) || ts.isJsxText(node)) && !isModuleName) {
      const text = node.text.trim();
      if (text) found.push({ text, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1 });
    }
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(source, visit);
  return found;
}

function looksRomanian(text: string): boolean {
  return DIACRITICS.test(text) || (/\s/.test(text.trim()) && ROMANIAN_WORDS.test(text));
}

const allowed = (file: string, text: string) => ALLOWED.some((a) => a.file === file && (a.text === undefined || a.text === text));

describe('no Romanian copy in code (it belongs in locales/ro and locales/en)', () => {
  const files = SCANNED.flatMap(sourceFiles);

  it('scans the staff console, the applicant pages, the engine and the widgets', () => {
    for (const dir of ['src/pages/staff/console', 'src/pages/staff/preview', 'src/pages/flow', 'src/pages/account', 'src/engine', 'widgets/address-form']) {
      expect(files.some((f) => f.startsWith(`${dir}/`)), dir).toBe(true);
    }
  });

  it('no string literal, template or JSX text in src/ or widgets/ is Romanian, but those allowed', () => {
    const found = files.flatMap((file) => texts(file).filter(({ text }) => looksRomanian(text) && !allowed(file, text)).map(({ text, line }) => `${file}:${line}: ${text}`));
    expect(found).toEqual([]);
  });

  it('every allowance still has something to allow (none left behind)', () => {
    for (const a of ALLOWED) {
      expect(fs.existsSync(path.join(ROOT, a.file)), a.file).toBe(true);
      expect(texts(a.file).some(({ text }) => looksRomanian(text) && (a.text === undefined || a.text === text)), `${a.file} ${a.text ?? ''}`).toBe(true);
    }
  });

  it('tells Romanian copy from English copy and from code', () => {
    for (const text of ['Pasul curent', 'Dosarul nu a fost gasit.', 'Alege un fisier', 'Salvează datele firmei', 'Te rugam sa incerci din nou', 'Codul poștal al firmei']) expect(looksRomanian(text), text).toBe(true);
    for (const text of ['Current step', 'The dossier was not found.', 'minmax(10rem, max-content) 1fr', 'application/pdf,image/*', 'steps:address.firstName', 'no delete service']) expect(looksRomanian(text), text).toBe(false);
  });
});
