import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PLACEHOLDERS, TemplateError, cleanValue, renderTemplate, unknownPlaceholders, type TemplateValues } from '../../server/documents/template';
import { documentPdf, FONT_PATH, wrap } from '../../server/documents/pdf';
import { SIGNED_DOCUMENTS, TEMPLATES_DIR, loadSignedDocumentTemplates, romanianDate, templateValues } from '../../server/registration/signed-documents';
import { PNG } from './identity-helpers';
import { readPdf } from './pdf-text';
import { PDFDict, PDFName, PDFRawStream } from 'pdf-lib';

const VALUES: TemplateValues = {
  nume: 'Țăranu Ștefan',
  cnp: '1900515125806',
  adresa: 'Str. Mărășești nr. 12, Iași',
  data: '25.11.2026',
  produs: 'Ghișeu',
  email: 'stefan@exemplu.ro',
  dosar: '42',
};

describe('the signed documents\' templates (server/documents/template.ts)', () => {
  it('fills the placeholders and reads title, headings, paragraphs, items and the signature line', () => {
    const template = [
      '<!-- a note for staff: {{nume}} is the applicant -->',
      '# Contract nr. {{dosar}}',
      '',
      'Subsemnatul {{ nume }}, CNP {{cnp}},',
      'cu domiciliul în {{adresa}}.',
      '',
      '## Obiect',
      '- primul punct pentru {{produs}}',
      '* al doilea',
      'Data: {{data}}',
      '',
      '{{semnatura}}',
    ].join('\n');
    expect(renderTemplate(template, VALUES)).toEqual([
      { kind: 'title', text: 'Contract nr. 42' },
      { kind: 'paragraph', text: 'Subsemnatul Țăranu Ștefan, CNP 1900515125806, cu domiciliul în Str. Mărășești nr. 12, Iași.' },
      { kind: 'heading', text: 'Obiect' },
      { kind: 'bullet', text: 'primul punct pentru Ghișeu' },
      { kind: 'bullet', text: 'al doilea' },
      { kind: 'paragraph', text: 'Data: 25.11.2026' },
      { kind: 'signature' },
    ]);
  });

  it('puts values in as plain text: a value with {{…}}, # or a line break is printed as it is, on its line', () => {
    const blocks = renderTemplate('Nume: {{nume}} / {{adresa}}\n\n{{semnatura}}', { ...VALUES, nume: '{{cnp}} # x', adresa: 'Str. A\nnr. 1\u0007' });
    expect(blocks[0]).toEqual({ kind: 'paragraph', text: 'Nume: {{cnp}} # x / Str. A nr. 1' });
    expect(cleanValue(undefined)).toBe('');
    expect(cleanValue(12)).toBe('12');
  });

  it('refuses an unknown placeholder, {{semnatura}} inside a line, and a template without {{semnatura}}', () => {
    expect(unknownPlaceholders('{{nume}} {{prenume}} {{ cnpp }} <!-- {{ignored}} -->')).toEqual(['prenume', 'cnpp']);
    expect(() => renderTemplate('Salut {{prenume}}\n{{semnatura}}', VALUES, 'contract.md')).toThrow(TemplateError);
    expect(() => renderTemplate('Salut {{prenume}}\n{{semnatura}}', VALUES, 'contract.md')).toThrow(/contract\.md: unknown placeholder \{\{prenume\}\}/);
    expect(() => renderTemplate('Semnătura: {{semnatura}}', VALUES)).toThrow(/must stand alone/);
    expect(() => renderTemplate('# Titlu\n\nText', VALUES)).toThrow(/no \{\{semnatura\}\}/);
  });

  it('the shipped templates (content/documents/) use only known placeholders and have a signature line', () => {
    for (const document of SIGNED_DOCUMENTS) {
      const text = fs.readFileSync(path.join(TEMPLATES_DIR, document.template), 'utf8');
      expect(unknownPlaceholders(text), document.template).toEqual([]);
      const blocks = renderTemplate(text, VALUES, document.template);
      expect(blocks[0]).toEqual({ kind: 'title', text: document.title });
      expect(blocks.filter((b) => b.kind === 'signature')).toHaveLength(1);
      expect(JSON.stringify(blocks)).toContain('Țăranu Ștefan');
    }
    expect(PLACEHOLDERS).toEqual(['nume', 'cnp', 'adresa', 'data', 'produs', 'email', 'dosar']);
  });

  it('a broken template stops the start (loadSignedDocumentTemplates throws, naming the file)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'templates-'));
    try {
      for (const document of SIGNED_DOCUMENTS) fs.writeFileSync(path.join(dir, document.template), '# T\n\n{{semnatura}}\n');
      expect(loadSignedDocumentTemplates(`${dir}/`).size).toBe(2);
      fs.writeFileSync(path.join(dir, SIGNED_DOCUMENTS[1].template), '# T\n\n{{nume_complet}}\n\n{{semnatura}}\n');
      expect(() => loadSignedDocumentTemplates(`${dir}/`)).toThrow(/cerere-imputernicire\.md: unknown placeholder \{\{nume_complet\}\}/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
      loadSignedDocumentTemplates();
    }
  });

  it('values of a request: "Nume Prenume", the two address lines, the day in Romania as DD.MM.YYYY', () => {
    const values = templateValues(
      { id: 7, profile: { first_name: 'Ana', last_name: 'Pop', personal_code: '2900515125801', address_1: 'Str. Lungă nr. 1', address_2: 'Cluj-Napoca, județul Cluj' } },
      'ana@exemplu.ro',
      'Ghișeu',
      new Date('2026-11-30T22:30:00Z'),
    );
    expect(values).toEqual({ nume: 'Pop Ana', cnp: '2900515125801', adresa: 'Str. Lungă nr. 1, Cluj-Napoca, județul Cluj', data: '01.12.2026', produs: 'Ghișeu', email: 'ana@exemplu.ro', dosar: '7' });
    expect(romanianDate(new Date('2026-06-15T10:00:00Z'))).toBe('15.06.2026');
  });
});

describe('the PDF (server/documents/pdf.ts)', () => {
  it('embeds a subset of the font whose glyphs print ă â î ș ț (the comma below, not the cedilla), read back as written', async () => {
    const blocks = renderTemplate('# Ștefan\n\nă â î ș ț Ă Â Î Ș Ț ş\n\n{{semnatura}}', VALUES);
    const bytes = await documentPdf({ title: 'T', author: 'G', blocks, signaturePng: new Uint8Array(PNG), date: new Date('2026-11-25T10:00:00Z') });
    const pdf = await readPdf(bytes);
    expect(pdf.lines).toContain('ă â î ș ț Ă Â Î Ș Ț ş');
    // One embedded TrueType font program, a subset: far smaller than the font file.
    const fonts = [...pdf.doc.context.enumerateIndirectObjects()].filter(([, o]) => o instanceof PDFDict && o.get(PDFName.of('FontFile2')));
    expect(fonts).toHaveLength(1);
    const program = pdf.doc.context.lookup((fonts[0][1] as PDFDict).get(PDFName.of('FontFile2'))) as PDFRawStream;
    expect(program.getContentsSize()).toBeLessThan(fs.statSync(FONT_PATH).size / 4);
  });

  it('wraps words to the width, cutting a word longer than a line', () => {
    const measure = (s: string) => s.length;
    expect(wrap('unu doi trei patru', 8, measure)).toEqual(['unu doi', 'trei', 'patru']);
    expect(wrap('abcdefghij', 4, measure)).toEqual(['abcd', 'efgh', 'ij']);
    expect(wrap('  ', 4, measure)).toEqual([]);
  });

  it('draws every line of a long document over several pages, with the signature image', async () => {
    const paragraph = `${'Un paragraf lung despre obligațiile părților. '.repeat(30)}`;
    const blocks = renderTemplate(`# Titlu\n\n${Array(12).fill(paragraph).join('\n\n')}\n\nSemnătura, {{nume}}:\n\n{{semnatura}}`, VALUES);
    const bytes = await documentPdf({ title: 'Titlu', author: 'Ghișeu', blocks, signaturePng: new Uint8Array(PNG), date: new Date('2026-11-25T10:00:00Z') });
    const pdf = await readPdf(bytes);
    expect(pdf.doc.getPageCount()).toBeGreaterThan(1);
    expect(pdf.doc.getAuthor()).toBe('Ghișeu');
    expect(pdf.text).toContain('Semnătura, Țăranu Ștefan:');
    expect(pdf.text.replace(/\s+/g, ' ')).toContain(paragraph.trim());
    expect(pdf.images).toBe(1);
    // The font subset, not the whole font (about 140 KB).
    expect(bytes.length).toBeLessThan(60_000);
    await expect(documentPdf({ title: 'T', author: 'G', blocks, signaturePng: new TextEncoder().encode('not a png'), date: new Date() })).rejects.toThrow();
  });
});
