import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PDFDocument, rgb, type PDFFont, type PDFImage, type PDFPage } from 'pdf-lib';
import type { Block } from './template';
import fontkit from '@pdf-lib/fontkit';

/**
 * Lays out a document's blocks (template.ts) on A4 pages with pdf-lib and places the drawn
 * signature (a PNG) where the template says. The text is set in Liberation Sans (a TrueType font
 * with ă â î ș ț, the glyphs drawn embedded as a subset through @pdf-lib/fontkit); the PDF keeps a ToUnicode map, so its text can be
 * searched and copied.
 */

export const FONT_PATH = fileURLToPath(new URL('./fonts/LiberationSans-Regular.ttf', import.meta.url));

let fontBytes: Uint8Array | null = null;
function font(): Uint8Array {
  fontBytes ??= new Uint8Array(fs.readFileSync(FONT_PATH));
  return fontBytes;
}

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 64;
const BODY = 11;
const LEADING = 1.4;
const STYLE = {
  title: { size: 17, before: 0, after: 14 },
  heading: { size: 12.5, before: 10, after: 4 },
  paragraph: { size: BODY, before: 0, after: 8 },
  bullet: { size: BODY, before: 0, after: 3 },
} as const;
/** The signature image: at most this box (points), its proportions kept. */
const SIGNATURE_BOX = { width: 200, height: 70 };
const INK = rgb(0.1, 0.1, 0.12);

export interface PdfInput {
  title: string;
  /** The PDF's author metadata (the brand). */
  author: string;
  blocks: Block[];
  signaturePng: Uint8Array;
  /** The document's date (creation and modification metadata). */
  date: Date;
}

/** Words of a text in lines no wider than `width` at `size`; a word longer than a line is cut. */
export function wrap(text: string, width: number, measure: (s: string) => number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const candidate = line ? `${line} ${word}` : word;
    if (measure(candidate) <= width) {
      line = candidate;
      continue;
    }
    if (line) lines.push(line);
    line = '';
    let rest = word;
    while (measure(rest) > width) {
      let cut = rest.length - 1;
      while (cut > 1 && measure(rest.slice(0, cut)) > width) cut--;
      lines.push(rest.slice(0, cut));
      rest = rest.slice(cut);
    }
    line = rest;
  }
  if (line) lines.push(line);
  return lines;
}

class Writer {
  private page!: PDFPage;
  private y = 0;
  constructor(
    private readonly doc: PDFDocument,
    private readonly font: PDFFont,
  ) {
    this.newPage();
  }

  private newPage() {
    this.page = this.doc.addPage(A4);
    this.y = A4[1] - MARGIN;
  }

  private room(height: number) {
    if (this.y - height < MARGIN) this.newPage();
  }

  text(kind: keyof typeof STYLE, text: string) {
    const { size, before, after } = STYLE[kind];
    const indent = kind === 'bullet' ? 14 : 0;
    const width = A4[0] - 2 * MARGIN - indent;
    const lineHeight = size * LEADING;
    this.y -= before;
    const lines = wrap(text, width, (s) => this.font.widthOfTextAtSize(s, size));
    lines.forEach((line, i) => {
      this.room(lineHeight);
      const x = kind === 'title' ? (A4[0] - this.font.widthOfTextAtSize(line, size)) / 2 : MARGIN + indent;
      if (kind === 'bullet' && i === 0) this.page.drawText('•', { x: MARGIN + 2, y: this.y - size, size, font: this.font, color: INK });
      this.page.drawText(line, { x, y: this.y - size, size, font: this.font, color: INK });
      this.y -= lineHeight;
    });
    this.y -= after;
  }

  signature(image: PDFImage) {
    const scale = Math.min(SIGNATURE_BOX.width / image.width, SIGNATURE_BOX.height / image.height, 1);
    const width = image.width * scale;
    const height = image.height * scale;
    this.room(height + 12);
    this.page.drawImage(image, { x: MARGIN, y: this.y - height, width, height });
    this.y -= height + 4;
    this.page.drawLine({ start: { x: MARGIN, y: this.y }, end: { x: MARGIN + SIGNATURE_BOX.width, y: this.y }, thickness: 0.5, color: INK });
    this.y -= 12;
  }
}

/** The PDF's bytes. Throws when the signature is not a PNG pdf-lib can read. */
export async function documentPdf(input: PdfInput): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  const embedded = await doc.embedFont(font(), { subset: true });
  const signature = await doc.embedPng(input.signaturePng);
  doc.setTitle(input.title);
  doc.setAuthor(input.author);
  doc.setCreator(input.author);
  doc.setProducer('pdf-lib');
  doc.setLanguage('ro-RO');
  doc.setCreationDate(input.date);
  doc.setModificationDate(input.date);
  const writer = new Writer(doc, embedded);
  for (const block of input.blocks) {
    if (block.kind === 'signature') writer.signature(signature);
    else writer.text(block.kind, block.text);
  }
  return doc.save();
}
