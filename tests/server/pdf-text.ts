import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream, decodePDFRawStream, type PDFObject } from 'pdf-lib';

/**
 * What a test reads of a generated PDF: the text its pages draw (the hex glyph strings of the
 * content streams, one string per `Tj`, turned back into text through the font's ToUnicode map,
 * as a PDF reader does to search or copy) and how many images the pages draw. Enough for the PDFs
 * server/documents/pdf.ts writes (one embedded font, Identity-H).
 */

function decoded(object: PDFObject | undefined, doc: PDFDocument): string {
  const resolved = object ? doc.context.lookup(object) : undefined;
  if (resolved instanceof PDFArray) return resolved.asArray().map((o) => decoded(o, doc)).join('\n');
  if (resolved instanceof PDFRawStream) return Buffer.from(decodePDFRawStream(resolved).decode()).toString('latin1');
  return '';
}

/** Glyph code → text, from every font's ToUnicode CMap (`<code> <UTF-16BE>` pairs of its bfchar sections). */
function toUnicode(doc: PDFDocument): Map<number, string> {
  const map = new Map<number, string>();
  for (const [, object] of doc.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFDict) || object.get(PDFName.of('Type')) !== PDFName.of('Font')) continue;
    const cmap = decoded(object.get(PDFName.of('ToUnicode')), doc);
    for (const section of cmap.matchAll(/beginbfchar([\s\S]*?)endbfchar/g)) {
      for (const [, code, text] of section[1].matchAll(/<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>/g)) {
        const units = text.match(/.{4}/g)!.map((u) => parseInt(u, 16));
        map.set(parseInt(code, 16), String.fromCharCode(...units));
      }
    }
  }
  return map;
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
  const map = toUnicode(doc);
  const lines: string[] = [];
  for (const page of doc.getPages()) {
    const content = decoded(page.node.get(PDFName.of('Contents')), doc);
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
