import fs from 'node:fs';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream, decodePDFRawStream, type PDFObject } from 'pdf-lib';
import { FONT_PATH } from '../../server/documents/pdf';
import { readTrueType } from '../../server/documents/truetype';

/**
 * What a test reads of a generated PDF: the text its pages draw (the hex glyph strings of the
 * content streams, mapped back through the embedded font's character map, one string per `Tj`) and
 * how many images it holds. Enough for PDFs that server/documents/pdf.ts writes.
 */

let reverse: Map<number, string> | null = null;
function glyphToText(): Map<number, string> {
  if (reverse) return reverse;
  const font = readTrueType(new Uint8Array(fs.readFileSync(FONT_PATH)));
  reverse = new Map();
  for (const cp of font.characterSet) {
    const id = font.glyphForCodePoint(cp).id;
    if (!reverse.has(id)) reverse.set(id, String.fromCodePoint(cp));
  }
  return reverse;
}

function streamText(object: PDFObject | undefined, doc: PDFDocument): string {
  const resolved = object ? doc.context.lookup(object) : undefined;
  if (resolved instanceof PDFArray) return resolved.asArray().map((o) => streamText(o, doc)).join('\n');
  if (resolved instanceof PDFRawStream) return Buffer.from(decodePDFRawStream(resolved).decode()).toString('latin1');
  return '';
}

export interface PdfContents {
  doc: PDFDocument;
  /** Each drawn string (a line of text), in order. */
  lines: string[];
  /** The lines joined by spaces (a wrapped paragraph reads as written). */
  text: string;
  images: number;
}

export async function readPdf(bytes: Uint8Array): Promise<PdfContents> {
  const doc = await PDFDocument.load(bytes);
  const map = glyphToText();
  const lines: string[] = [];
  for (const page of doc.getPages()) {
    const content = streamText(page.node.get(PDFName.of('Contents')), doc);
    for (const match of content.matchAll(/<([0-9A-Fa-f]*)>\s*Tj/g)) {
      const hex = match[1];
      let line = '';
      for (let i = 0; i + 4 <= hex.length; i += 4) line += map.get(parseInt(hex.slice(i, i + 4), 16)) ?? '\uFFFD';
      lines.push(line);
    }
  }
  // Images the pages draw (their Resources' XObjects of subtype Image; an alpha mask is not counted).
  let images = 0;
  for (const page of doc.getPages()) {
    const xObjects = page.node.Resources()?.lookupMaybe(PDFName.of('XObject'), PDFDict);
    for (const ref of xObjects?.values() ?? []) {
      const object = doc.context.lookup(ref);
      if (object instanceof PDFRawStream && object.dict.get(PDFName.of('Subtype')) === PDFName.of('Image')) images++;
    }
  }
  return { doc, lines, text: lines.join(' '), images };
}
