/**
 * The text templates of the signed documents (content/documents/*.md, docs/flows-and-widgets.md "Signed documents"):
 * plain text that staff edit, with a few Markdown-like marks and {{placeholders}}.
 *
 *   # Title                       the document's title (large, once, at the top)
 *   ## Heading                    a section heading
 *   - item                        a bullet item (one line)
 *   text lines                    a paragraph; lines that follow one another join into one
 *   (blank line)                  ends a paragraph
 *   {{semnatura}}                 alone on a line: where the drawn signature image goes
 *   <!-- note -->                 a note for staff, never printed (may span lines)
 *
 * Placeholders inside the text: {{nume}}, {{cnp}}, {{adresa}}, {{data}}, {{produs}}, {{email}},
 * {{dosar}}. A name the generator does not know is an error (a typo must not reach a signed
 * document), and so is a template without {{semnatura}}. Values are put in as plain text: a value
 * that contains "{{…}}" or "#" is printed as it is, never read as a mark.
 */

export const PLACEHOLDERS = ['nume', 'cnp', 'adresa', 'data', 'produs', 'email', 'dosar'] as const;
export type Placeholder = (typeof PLACEHOLDERS)[number];
export type TemplateValues = Record<Placeholder, string>;

export const SIGNATURE_MARK = 'semnatura';

export type Block =
  | { kind: 'title' | 'heading' | 'paragraph' | 'bullet'; text: string }
  | { kind: 'signature' };

export class TemplateError extends Error {}

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;

/** The placeholder names a text uses that the generator does not know. */
export function unknownPlaceholders(template: string): string[] {
  const known = new Set<string>([...PLACEHOLDERS, SIGNATURE_MARK]);
  const names = [...template.replace(/<!--[\s\S]*?-->/g, '').matchAll(PLACEHOLDER)].map((m) => m[1]);
  return [...new Set(names.filter((name) => !known.has(name)))];
}

/** One line of text with every {{placeholder}} replaced (one pass: values are never read again). */
function fill(text: string, values: TemplateValues, source: string): string {
  return text.replace(PLACEHOLDER, (_all, name: string) => {
    if (name === SIGNATURE_MARK) throw new TemplateError(`${source}: {{${SIGNATURE_MARK}}} must stand alone on its own line`);
    if (!(PLACEHOLDERS as readonly string[]).includes(name)) throw new TemplateError(`${source}: unknown placeholder {{${name}}}`);
    return values[name as Placeholder];
  });
}

/** Control characters and line breaks of a value become spaces (a value stays on its line). */
export function cleanValue(value: unknown): string {
  const text = typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').replace(/\s+/g, ' ').trim();
}

/**
 * The template's blocks with the values filled in. `source` names the file in error messages.
 * Throws TemplateError for an unknown placeholder, a misplaced or missing {{semnatura}}.
 */
export function renderTemplate(template: string, values: TemplateValues, source = 'template'): Block[] {
  const unknown = unknownPlaceholders(template);
  if (unknown.length) throw new TemplateError(`${source}: unknown placeholder${unknown.length > 1 ? 's' : ''} ${unknown.map((n) => `{{${n}}}`).join(', ')}; known: ${PLACEHOLDERS.map((n) => `{{${n}}}`).join(', ')}, {{${SIGNATURE_MARK}}}`);
  const clean = Object.fromEntries(PLACEHOLDERS.map((name) => [name, cleanValue(values[name])])) as TemplateValues;
  const lines = template.replace(/^\uFEFF/, '').replace(/<!--[\s\S]*?-->/g, '').split(/\r?\n/);
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  const endParagraph = () => {
    if (paragraph.length) blocks.push({ kind: 'paragraph', text: fill(paragraph.join(' '), clean, source) });
    paragraph = [];
  };
  for (const raw of lines) {
    const line = raw.trim();
    if (!line) {
      endParagraph();
      continue;
    }
    const mark = /^(#{1,2})\s+(.*)$/.exec(line);
    if (mark) {
      endParagraph();
      blocks.push({ kind: mark[1] === '#' ? 'title' : 'heading', text: fill(mark[2], clean, source) });
    } else if (/^[-*]\s+/.test(line)) {
      endParagraph();
      blocks.push({ kind: 'bullet', text: fill(line.replace(/^[-*]\s+/, ''), clean, source) });
    } else if (new RegExp(`^\\{\\{\\s*${SIGNATURE_MARK}\\s*\\}\\}$`).test(line)) {
      endParagraph();
      blocks.push({ kind: 'signature' });
    } else paragraph.push(line);
  }
  endParagraph();
  if (!blocks.some((b) => b.kind === 'signature')) throw new TemplateError(`${source}: the template has no {{${SIGNATURE_MARK}}} line (where the signature goes)`);
  return blocks;
}
