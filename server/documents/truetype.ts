/**
 * A small TrueType reader that gives pdf-lib what it needs to embed a font with Romanian letters
 * (ă â î ș ț with a comma below, which the 14 standard PDF fonts cannot show: their WinAnsi encoding
 * lacks them). pdf-lib embeds custom fonts through a "fontkit" object (`registerFontkit`); the usual
 * one, @pdf-lib/fontkit, is not a dependency of this project. pdf-lib only asks the font for the
 * metrics, the Unicode → glyph map and the advance widths, which this file reads from the `head`,
 * `hhea`, `maxp`, `hmtx`, `OS/2`, `post`, `name` and `cmap` tables, and (subset) for the bytes of a
 * smaller font. The PDF gets FontFile2, Identity-H, and a ToUnicode map: the text stays searchable
 * and copyable. `embedFont(bytes, { subset: false })` embeds the file unchanged.
 *
 * No shaping, kerning or ligatures: left-to-right Latin text, one glyph per code point. A code
 * point the font lacks is drawn as the font's "missing glyph" (glyph 0). CFF (OpenType "OTTO")
 * and collection (.ttc) files are refused.
 *
 * With `embedFont(bytes, { subset: true })` pdf-lib asks the font for a subset (`createSubset`):
 * only the glyphs drawn (and the parts of composite glyphs such as ș = s + comma) are written,
 * renumbered from 1 (.notdef is 0), as a TrueType file with the tables a PDF needs (head, hhea,
 * maxp, hmtx, loca, glyf, and the hinting tables cvt, fpgm, prep): a few KB instead of the whole font.
 */

export interface TrueTypeGlyph {
  id: number;
  /** In font units. */
  advanceWidth: number;
  codePoints: number[];
  name: string | null;
}

/** What pdf-lib's subset embedder uses: glyph ids renumbered in the order they are drawn, then the font's bytes. */
export interface TrueTypeSubset {
  cff: null;
  includeGlyph(glyph: TrueTypeGlyph | number): number;
  encodeStream(): { on(event: 'data' | 'end' | 'error', listener: (value?: unknown) => void): ReturnType<TrueTypeSubset['encodeStream']> };
  encode(): Uint8Array;
}

export interface TrueTypeFont {
  postscriptName: string | null;
  unitsPerEm: number;
  ascent: number;
  descent: number;
  capHeight: number;
  xHeight: number;
  italicAngle: number;
  bbox: { minX: number; minY: number; maxX: number; maxY: number };
  cff: null;
  'OS/2': { sFamilyClass: number };
  head: { macStyle: { italic: boolean; bold: boolean } };
  post: { isFixedPitch: boolean };
  /** Every code point the font maps, ascending. */
  characterSet: number[];
  hasGlyphForCodePoint(codePoint: number): boolean;
  glyphForCodePoint(codePoint: number): TrueTypeGlyph;
  layout(text: string): { glyphs: TrueTypeGlyph[] };
  glyphsForString(text: string): TrueTypeGlyph[];
  createSubset(): TrueTypeSubset;
}

export class TrueTypeError extends Error {}

interface Table {
  offset: number;
  length: number;
}

function tables(view: DataView): Map<string, Table> {
  const version = view.getUint32(0);
  if (version === 0x4f54544f) throw new TrueTypeError('CFF-based OpenType fonts (OTTO) are not supported: use a TrueType (.ttf) font');
  if (version === 0x74746366) throw new TrueTypeError('font collections (.ttc) are not supported: use a single .ttf font');
  if (version !== 0x00010000 && version !== 0x74727565) throw new TrueTypeError('not a TrueType font');
  const count = view.getUint16(4);
  const map = new Map<string, Table>();
  for (let i = 0; i < count; i++) {
    const at = 12 + i * 16;
    const tag = String.fromCharCode(view.getUint8(at), view.getUint8(at + 1), view.getUint8(at + 2), view.getUint8(at + 3));
    const offset = view.getUint32(at + 8);
    const length = view.getUint32(at + 12);
    if (offset + length > view.byteLength) throw new TrueTypeError(`table ${tag} lies outside the file`);
    map.set(tag, { offset, length });
  }
  for (const tag of ['head', 'hhea', 'maxp', 'hmtx', 'cmap']) if (!map.has(tag)) throw new TrueTypeError(`the font has no ${tag} table`);
  return map;
}

/** Unicode → glyph id from the best Unicode subtable (format 12, else format 4). */
function readCmap(view: DataView, table: Table): Map<number, number> {
  const base = table.offset;
  const count = view.getUint16(base + 2);
  let format4 = -1;
  let format12 = -1;
  for (let i = 0; i < count; i++) {
    const platform = view.getUint16(base + 4 + i * 8);
    const encoding = view.getUint16(base + 6 + i * 8);
    const offset = base + view.getUint32(base + 8 + i * 8);
    const format = view.getUint16(offset);
    const unicode = platform === 0 || (platform === 3 && (encoding === 1 || encoding === 10));
    if (!unicode) continue;
    if (format === 12 && format12 < 0) format12 = offset;
    if (format === 4 && format4 < 0) format4 = offset;
  }
  const map = new Map<number, number>();
  if (format12 >= 0) {
    const groups = view.getUint32(format12 + 12);
    for (let g = 0; g < groups; g++) {
      const at = format12 + 16 + g * 12;
      const start = view.getUint32(at);
      const end = view.getUint32(at + 4);
      const glyph = view.getUint32(at + 8);
      for (let c = start; c <= end; c++) map.set(c, glyph + (c - start));
    }
    return map;
  }
  if (format4 < 0) throw new TrueTypeError('the font has no Unicode character map');
  const segments = view.getUint16(format4 + 6) / 2;
  const ends = format4 + 14;
  const starts = ends + segments * 2 + 2;
  const deltas = starts + segments * 2;
  const rangeOffsets = deltas + segments * 2;
  for (let s = 0; s < segments; s++) {
    const start = view.getUint16(starts + s * 2);
    const end = view.getUint16(ends + s * 2);
    const delta = view.getInt16(deltas + s * 2);
    const rangeOffset = view.getUint16(rangeOffsets + s * 2);
    for (let c = start; c <= end && c !== 0xffff; c++) {
      let glyph: number;
      if (rangeOffset === 0) glyph = (c + delta) & 0xffff;
      else {
        const at = rangeOffsets + s * 2 + rangeOffset + (c - start) * 2;
        glyph = view.getUint16(at);
        if (glyph !== 0) glyph = (glyph + delta) & 0xffff;
      }
      if (glyph !== 0) map.set(c, glyph);
    }
  }
  return map;
}

/** The PostScript name (name id 6), from the Windows (UTF-16) or Macintosh (Roman) record. */
function readPostscriptName(view: DataView, table: Table | undefined): string | null {
  if (!table) return null;
  const base = table.offset;
  const count = view.getUint16(base + 2);
  const strings = base + view.getUint16(base + 4);
  for (let i = 0; i < count; i++) {
    const at = base + 6 + i * 12;
    const platform = view.getUint16(at);
    const nameId = view.getUint16(at + 6);
    if (nameId !== 6) continue;
    const length = view.getUint16(at + 8);
    const offset = strings + view.getUint16(at + 10);
    let name = '';
    if (platform === 3 || platform === 0) for (let j = 0; j + 1 < length; j += 2) name += String.fromCharCode(view.getUint16(offset + j));
    else for (let j = 0; j < length; j++) name += String.fromCharCode(view.getUint8(offset + j));
    // A PostScript name is printable ASCII without spaces or delimiters.
    const clean = name.replace(/[^\x21-\x7e]|[[\](){}<>/%]/g, '');
    if (clean) return clean;
  }
  return null;
}

/** Reads a .ttf file; throws TrueTypeError when it is not one this reader handles. */
export function readTrueType(bytes: Uint8Array): TrueTypeFont {
  if (bytes.byteLength < 12) throw new TrueTypeError('not a TrueType font');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const t = tables(view);
  const head = t.get('head')!.offset;
  const hhea = t.get('hhea')!.offset;
  const unitsPerEm = view.getUint16(head + 18);
  const bbox = { minX: view.getInt16(head + 36), minY: view.getInt16(head + 38), maxX: view.getInt16(head + 40), maxY: view.getInt16(head + 42) };
  const macStyle = view.getUint16(head + 44);
  const ascent = view.getInt16(hhea + 4);
  const descent = view.getInt16(hhea + 6);
  const metrics = view.getUint16(hhea + 34);
  const glyphCount = view.getUint16(t.get('maxp')!.offset + 4);
  const hmtx = t.get('hmtx')!.offset;
  if (metrics === 0 || metrics > glyphCount || metrics * 4 > t.get('hmtx')!.length) throw new TrueTypeError('the font has a broken hmtx table');
  const advance = (id: number) => view.getUint16(hmtx + Math.min(id, metrics - 1) * 4);

  const os2 = t.get('OS/2');
  const os2Version = os2 ? view.getUint16(os2.offset) : -1;
  const sFamilyClass = os2 ? view.getInt16(os2.offset + 30) : 0;
  const xHeight = os2 && os2Version >= 2 ? view.getInt16(os2.offset + 86) : 0;
  const capHeight = os2 && os2Version >= 2 ? view.getInt16(os2.offset + 88) : ascent;
  const post = t.get('post');
  const italicAngle = post ? view.getInt32(post.offset + 4) / 65536 : 0;
  const isFixedPitch = post ? view.getUint32(post.offset + 12) !== 0 : false;

  const cmap = readCmap(view, t.get('cmap')!);
  const characterSet = [...cmap.keys()].filter((c) => cmap.get(c)! < glyphCount).sort((a, b) => a - b);

  const glyphs = new Map<number, TrueTypeGlyph>();
  const glyphForCodePoint = (codePoint: number): TrueTypeGlyph => {
    const mapped = cmap.get(codePoint);
    const id = mapped !== undefined && mapped < glyphCount ? mapped : 0;
    let glyph = glyphs.get(id);
    if (!glyph) {
      glyph = { id, advanceWidth: advance(id), codePoints: id === 0 ? [] : [codePoint], name: null };
      glyphs.set(id, glyph);
    }
    return glyph;
  };
  const glyphsForString = (text: string) => Array.from(text, (ch) => glyphForCodePoint(ch.codePointAt(0)!));

  return {
    postscriptName: readPostscriptName(view, t.get('name')),
    unitsPerEm,
    ascent,
    descent,
    capHeight,
    xHeight,
    italicAngle,
    bbox,
    cff: null,
    'OS/2': { sFamilyClass },
    head: { macStyle: { bold: (macStyle & 1) !== 0, italic: (macStyle & 2) !== 0 } },
    post: { isFixedPitch },
    characterSet,
    hasGlyphForCodePoint: (codePoint) => {
      const id = cmap.get(codePoint);
      return id !== undefined && id < glyphCount;
    },
    glyphForCodePoint,
    glyphsForString,
    layout: (text) => ({ glyphs: glyphsForString(text) }),
    createSubset: () => createSubset(bytes, view, t, glyphCount),
  };
}

const COMPONENT = { wordArgs: 0x0001, scale: 0x0008, more: 0x0020, xyScale: 0x0040, twoByTwo: 0x0080 } as const;

/** Offsets of each component's glyph index inside a composite glyph's data (none for a simple glyph). */
function componentIndexOffsets(glyph: Uint8Array): number[] {
  if (glyph.length < 10) return [];
  const view = new DataView(glyph.buffer, glyph.byteOffset, glyph.byteLength);
  if (view.getInt16(0) >= 0) return [];
  const offsets: number[] = [];
  let at = 10;
  for (;;) {
    if (at + 4 > glyph.length) throw new TrueTypeError('a composite glyph is cut short');
    const flags = view.getUint16(at);
    offsets.push(at + 2);
    at += 4 + (flags & COMPONENT.wordArgs ? 4 : 2);
    if (flags & COMPONENT.scale) at += 2;
    else if (flags & COMPONENT.xyScale) at += 4;
    else if (flags & COMPONENT.twoByTwo) at += 8;
    if (!(flags & COMPONENT.more)) return offsets;
  }
}

function checksum(data: Uint8Array): number {
  const padded = new Uint8Array((data.length + 3) & ~3);
  padded.set(data);
  const view = new DataView(padded.buffer);
  let sum = 0;
  for (let i = 0; i < padded.length; i += 4) sum = (sum + view.getUint32(i)) >>> 0;
  return sum;
}

/** A TrueType file of these tables (tag → bytes), with its directory and checksums. */
function writeFont(tablesByTag: Map<string, Uint8Array>): Uint8Array {
  const tags = [...tablesByTag.keys()].sort();
  const count = tags.length;
  let size = 12 + 16 * count;
  for (const tag of tags) size += (tablesByTag.get(tag)!.length + 3) & ~3;
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  const power = 2 ** Math.floor(Math.log2(count));
  view.setUint32(0, 0x00010000);
  view.setUint16(4, count);
  view.setUint16(6, power * 16);
  view.setUint16(8, Math.log2(power));
  view.setUint16(10, count * 16 - power * 16);
  let offset = 12 + 16 * count;
  let headOffset = -1;
  tags.forEach((tag, i) => {
    const data = tablesByTag.get(tag)!;
    const at = 12 + i * 16;
    for (let c = 0; c < 4; c++) view.setUint8(at + c, tag.charCodeAt(c));
    view.setUint32(at + 4, checksum(data));
    view.setUint32(at + 8, offset);
    view.setUint32(at + 12, data.length);
    out.set(data, offset);
    if (tag === 'head') headOffset = offset;
    offset += (data.length + 3) & ~3;
  });
  if (headOffset >= 0) view.setUint32(headOffset + 8, (0xb1b0afba - checksum(out)) >>> 0);
  return out;
}

function createSubset(bytes: Uint8Array, view: DataView, t: Map<string, Table>, glyphCount: number): TrueTypeSubset {
  const table = (tag: string) => {
    const entry = t.get(tag);
    return entry ? bytes.subarray(entry.offset, entry.offset + entry.length) : null;
  };
  const head = t.get('head')!.offset;
  const longLoca = view.getInt16(head + 50) === 1;
  const loca = t.get('loca');
  const glyf = t.get('glyf');
  if (!loca || !glyf) throw new TrueTypeError('the font has no glyf/loca tables (not a TrueType-outline font)');
  const glyphData = (id: number): Uint8Array => {
    const start = longLoca ? view.getUint32(loca.offset + id * 4) : view.getUint16(loca.offset + id * 2) * 2;
    const end = longLoca ? view.getUint32(loca.offset + id * 4 + 4) : view.getUint16(loca.offset + id * 2 + 2) * 2;
    if (end < start || glyf.offset + end > glyf.offset + glyf.length) throw new TrueTypeError(`glyph ${id} lies outside the glyf table`);
    return bytes.subarray(glyf.offset + start, glyf.offset + end);
  };
  const hhea = t.get('hhea')!.offset;
  const metrics = view.getUint16(hhea + 34);
  const hmtx = t.get('hmtx')!.offset;
  const advance = (id: number) => view.getUint16(hmtx + Math.min(id, metrics - 1) * 4);
  const leftBearing = (id: number) => (id < metrics ? view.getInt16(hmtx + id * 4 + 2) : view.getInt16(hmtx + metrics * 4 + (id - metrics) * 2));

  // New id → old id; .notdef stays 0.
  const order: number[] = [0];
  const newId = new Map<number, number>([[0, 0]]);
  const include = (old: number): number => {
    if (!Number.isInteger(old) || old < 0 || old >= glyphCount) return 0;
    let id = newId.get(old);
    if (id === undefined) {
      id = order.length;
      order.push(old);
      newId.set(old, id);
    }
    return id;
  };

  const encode = (): Uint8Array => {
    // Composite glyphs bring their components (appended, so the ids of drawn glyphs never move).
    for (let i = 0; i < order.length; i++) {
      const data = glyphData(order[i]);
      for (const at of componentIndexOffsets(data)) include((data[at] << 8) | data[at + 1]);
    }
    const glyphs = order.map((old) => {
      const data = glyphData(old).slice();
      for (const at of componentIndexOffsets(data)) {
        const id = newId.get((data[at] << 8) | data[at + 1]) ?? 0;
        data[at] = id >> 8;
        data[at + 1] = id & 0xff;
      }
      return data;
    });
    const newLoca = new Uint8Array((glyphs.length + 1) * 4);
    const locaView = new DataView(newLoca.buffer);
    const newGlyf = new Uint8Array(glyphs.reduce((n, g) => n + ((g.length + 3) & ~3), 0));
    let offset = 0;
    glyphs.forEach((g, i) => {
      locaView.setUint32(i * 4, offset);
      newGlyf.set(g, offset);
      offset += (g.length + 3) & ~3;
    });
    locaView.setUint32(glyphs.length * 4, offset);
    const newHmtx = new Uint8Array(glyphs.length * 4);
    const hmtxView = new DataView(newHmtx.buffer);
    order.forEach((old, i) => {
      hmtxView.setUint16(i * 4, advance(old));
      hmtxView.setInt16(i * 4 + 2, leftBearing(old));
    });
    const newHead = table('head')!.slice();
    new DataView(newHead.buffer).setInt16(50, 1);
    new DataView(newHead.buffer).setUint32(8, 0);
    const newHhea = table('hhea')!.slice();
    new DataView(newHhea.buffer).setUint16(34, glyphs.length);
    const newMaxp = table('maxp')!.slice();
    new DataView(newMaxp.buffer).setUint16(4, glyphs.length);
    const out = new Map<string, Uint8Array>([
      ['head', newHead],
      ['hhea', newHhea],
      ['maxp', newMaxp],
      ['hmtx', newHmtx],
      ['loca', newLoca],
      ['glyf', newGlyf],
    ]);
    for (const tag of ['cvt ', 'fpgm', 'prep']) {
      const data = table(tag);
      if (data) out.set(tag, data);
    }
    return writeFont(out);
  };

  const subset: TrueTypeSubset = {
    cff: null,
    includeGlyph: (glyph) => include(typeof glyph === 'number' ? glyph : glyph.id),
    encode,
    encodeStream: () => {
      const listeners: Record<string, ((value?: unknown) => void)[]> = { data: [], end: [], error: [] };
      const stream = {
        on(event: 'data' | 'end' | 'error', listener: (value?: unknown) => void) {
          listeners[event].push(listener);
          return stream;
        },
      };
      // pdf-lib listens first, then waits: the bytes come on the next turn.
      setImmediate(() => {
        let data: Uint8Array;
        try {
          data = encode();
        } catch (error) {
          for (const listener of listeners.error) listener(error);
          return;
        }
        for (const listener of listeners.data) listener(data);
        for (const listener of listeners.end) listener();
      });
      return stream;
    },
  };
  return subset;
}

/** The object `PDFDocument.registerFontkit` takes: `create(bytes)` → the font as pdf-lib reads it. */
export const trueTypeFontkit = {
  create: (bytes: Uint8Array) => readTrueType(bytes),
};
