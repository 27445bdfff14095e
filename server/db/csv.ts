/**
 * Reading the official CSV files of INS (SIRUTA, CAEN) for the import commands: their bytes come
 * in UTF-8 or in the Central European single-byte encodings, their lines are split on a delimiter
 * with "…" quoting.
 */

/**
 * Decodes a file's bytes: UTF-8 when they are valid UTF-8 (a BOM is dropped), otherwise the
 * Central European single-byte encoding INS uses (ISO-8859-2, or Windows-1250 when bytes
 * 0x80–0x9F occur; both put ă â î ş ţ at the same places).
 */
export function decodeCentralEuropean(bytes: Uint8Array): string {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    const cp1250 = bytes.some((b) => b >= 0x80 && b <= 0x9f);
    text = new TextDecoder(cp1250 ? 'windows-1250' : 'iso-8859-2').decode(bytes);
  }
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Splits one CSV line; fields may be quoted with "" (doubled quotes inside); fields are trimmed. */
export function splitCsvLine(line: string, delimiter: string): string[] {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === delimiter) {
      fields.push(field);
      field = '';
    } else field += ch;
  }
  fields.push(field);
  return fields.map((f) => f.trim());
}
