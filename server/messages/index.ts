import type { FieldErrors } from '../../src/core/api-types';
import { en } from './en';
import { ro, type Messages } from './ro';

/**
 * The server's texts per language (issue 18): one catalogue per language, ./ro.ts (default, the
 * spec's copy) and ./en.ts. The language of an answer comes from the request's `Accept-Language`
 * (the app's API client sends the applicant's choice); the language of a mail sent later from the
 * user's stored choice (user_meta `language`, server/lib/users.ts). Romanian for anything else.
 */
export const LANGUAGES = ['ro', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'ro';

const CATALOGUES: Record<Language, Messages> = { ro, en };

export function messages(language: Language): Messages {
  return CATALOGUES[language];
}

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** `pickLanguage`'s answers by header (browsers send a handful of distinct values): bounded. */
const picked = new Map<string, Language>();

/**
 * The language an `Accept-Language` header asks for: its ranges by weight (`q`), the first whose
 * primary tag is one we have (`en-GB` → en); none, a malformed header or `*` → Romanian.
 */
export function pickLanguage(header: string | string[] | undefined): Language {
  if (!header) return DEFAULT_LANGUAGE;
  if (typeof header === 'string' && header.length <= 200) {
    let language = picked.get(header);
    if (language === undefined) {
      language = pickFromHeader(header);
      if (picked.size >= 256) picked.clear();
      picked.set(header, language);
    }
    return language;
  }
  return pickFromHeader(header);
}

function pickFromHeader(header: string | string[]): Language {
  const text = Array.isArray(header) ? header.join(',') : (header ?? '');
  const ranges = text
    .split(',')
    .slice(0, 20)
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      const weight = q === undefined ? 1 : Number(q);
      return { primary: tag.trim().toLowerCase().split('-')[0], weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((r) => r.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  return ranges.map((r) => r.primary).find(isLanguage) ?? DEFAULT_LANGUAGE;
}

/** A Romanian text of the server (a thrown literal, an answer's message) in `language`; itself when not catalogued. */
export function translate(language: Language, text: string): string {
  if (language === DEFAULT_LANGUAGE) return text;
  const catalogue = CATALOGUES[language];
  const fixed = catalogue.byRomanian[text] ?? reverse(language).get(text);
  if (fixed !== undefined) return fixed;
  for (const [pattern, build] of catalogue.byPattern) {
    const match = pattern.exec(text);
    if (match) return build(...match.slice(1));
  }
  return text;
}

/** The catalogue's fixed texts (envelope, field messages) by their Romanian wording, built once per language. */
const reverses = new Map<Language, Map<string, string>>();
function reverse(language: Language): Map<string, string> {
  let map = reverses.get(language);
  if (!map) {
    map = new Map();
    const target = CATALOGUES[language];
    for (const [key, text] of Object.entries(ro.envelope)) {
      if (typeof text === 'string') map.set(text, target.envelope[key as keyof Messages['envelope']] as string);
    }
    for (const [status, text] of Object.entries(ro.envelope.request)) map.set(text, target.envelope.request[Number(status)]);
    for (const [field, rules] of Object.entries(ro.fields)) {
      for (const [rule, text] of Object.entries(rules)) {
        const translated = target.fields[field]?.[rule];
        if (translated) map.set(text, translated);
      }
    }
    reverses.set(language, map);
  }
  return map;
}

/** `{ field: [messages] }` with each Romanian message in `language`. */
export function translateFields(language: Language, fields: FieldErrors): FieldErrors {
  if (language === DEFAULT_LANGUAGE) return fields;
  return Object.fromEntries(Object.entries(fields).map(([field, list]) => [field, list.map((m) => translate(language, m))]));
}
