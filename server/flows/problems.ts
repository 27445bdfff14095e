/** A mistake flows:check finds, where it is written: a file and a JSON pointer into it. */
export interface Problem {
  level: 'error' | 'warning';
  /** The file as the reader knows it: `flows/new-pfa.json`, `schemas/card.json` (the preview: `new-pfa.json`). */
  file: string;
  /** JSON pointer into the file, with its `#`: `#/variants/1/steps/requesting-company-step-6/uiSchema`. */
  path: string;
  message: string;
}

/** One pointer segment (RFC 6901): `~` and `/` escaped. */
export function escapeSegment(segment: string | number): string {
  return String(segment).replace(/~/g, '~0').replace(/\//g, '~1');
}

/** A pointer's segments, unescaped ("" → []). */
export function pointerSegments(pointer: string): string[] {
  if (pointer === '' || pointer === '#') return [];
  return pointer
    .replace(/^#/, '')
    .replace(/^\//, '')
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

export function toPointer(segments: (string | number)[]): string {
  return segments.map((s) => `/${escapeSegment(s)}`).join('');
}

export const isPlainObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The closest of `known` to a misspelled `name` (same letters in another case, or at most two edits), for "did you mean". */
export function closest(name: string, known: Iterable<string>): string | null {
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const candidate of known) {
    if (candidate === name) continue;
    if (candidate.toLowerCase() === name.toLowerCase()) return candidate;
    const d = distance(name, candidate);
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best !== null && bestDistance <= Math.min(2, Math.floor(name.length / 3)) ? best : null;
}

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = current;
    }
  }
  return row[b.length];
}
