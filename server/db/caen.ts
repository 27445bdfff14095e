import { and, eq, sql } from 'drizzle-orm';
import { searchKey } from '../../src/core/counties';
import { caenCodes, caenCorrespondence } from './schema';
import type { Db } from './types';

/**
 * CAEN, the Romanian classification of activities (issue 31). The trade register records
 * activities only in CAEN Rev.3 (INS Order 377/2024) since 1 January 2025; Rev.2 classes stay in
 * the database so that what requests stored keeps its meaning, with the official correspondence.
 *
 * A code's id carries its revision: 20000 + the code's number for Rev.2, 30000 + it for Rev.3
 * (Rev.2 4791 is 24791, Rev.3 4791 is 34791: the same digits, two different activities).
 */
export const CURRENT_CAEN_REVISION = 'CAEN Rev.3';
export const PREVIOUS_CAEN_REVISION = 'CAEN Rev.2';
const ID_BASE: Readonly<Record<string, number>> = { [PREVIOUS_CAEN_REVISION]: 20000, [CURRENT_CAEN_REVISION]: 30000 };

/** The id of a class of a revision ("CAEN Rev.3", "6210" → 36210). */
export function caenId(revision: string, code: string): number {
  const base = ID_BASE[revision];
  if (base === undefined || !/^\d{4}$/.test(code)) throw new Error(`not a CAEN class: ${revision} ${code}`);
  return base + Number(code);
}

/** The ids of Rev.2 classes lie in this range (inclusive). */
export const PREVIOUS_REVISION_IDS: readonly [number, number] = [20000, 29999];

/** The revision an id belongs to. */
export function revisionOfId(id: number): string | null {
  if (id > 30000 && id < 40000) return CURRENT_CAEN_REVISION;
  if (id > 20000 && id < 30000) return PREVIOUS_CAEN_REVISION;
  return null;
}

export interface CaenListFile {
  source: string;
  revision: string;
  codes: Array<{ code: string; name: string; section: string }>;
}

export interface CaenCorrespondenceFile {
  source: string;
  /** [Rev.2 code, Rev.3 code]; a Rev.2 class that split has several pairs. */
  pairs: Array<[string, string]>;
}

/** A class list (seed/caen-rev2.json, seed/caen-rev3.json) by id; classes no longer in the file stay (requests may name them). */
export async function seedCaenList(db: Db, text: string): Promise<void> {
  const { revision, codes } = JSON.parse(text) as CaenListFile;
  const rows = codes.map((c) => ({ id: caenId(revision, c.code), code: c.code, name: c.name, section: c.section, revision, searchName: searchKey(c.name) }));
  for (let i = 0; i < rows.length; i += 500) {
    await db
      .insert(caenCodes)
      .values(rows.slice(i, i + 500))
      .onConflictDoUpdate({
        target: caenCodes.id,
        set: { code: sql`excluded.code`, name: sql`excluded.name`, section: sql`excluded.section`, revision: sql`excluded.revision`, searchName: sql`excluded.search_name` },
      });
  }
}

/**
 * The Rev.2 → Rev.3 correspondence (seed/caen-rev2-rev3.json), replaced whole. The requests not yet
 * sent then move to Rev.3 when the app starts (`moveCodesToCurrentRevision`, server/registration/store.ts).
 */
export async function seedCaenCorrespondence(db: Db, text: string): Promise<void> {
  const { pairs } = JSON.parse(text) as CaenCorrespondenceFile;
  const rows = pairs.map(([from, to]) => ({ rev2Id: caenId(PREVIOUS_CAEN_REVISION, from), rev3Id: caenId(CURRENT_CAEN_REVISION, to) }));
  await db.delete(caenCorrespondence);
  for (let i = 0; i < rows.length; i += 500) await db.insert(caenCorrespondence).values(rows.slice(i, i + 500)).onConflictDoNothing();
}

/**
 * The codes of a request in the current revision: a Rev.2 code with exactly one Rev.3 counterpart
 * is replaced by it (once, if the list already holds it); one that split into several stays as it
 * is, for the applicant to choose on the overview (operators see it flagged). Null: nothing changes.
 */
export function codesInCurrentRevision(codes: unknown[], targets: ReadonlyMap<number, number[]>): number[] | null {
  const out: number[] = [];
  let changed = false;
  for (const code of codes) {
    if (typeof code !== 'number') continue;
    const to = revisionOfId(code) === PREVIOUS_CAEN_REVISION ? targets.get(code) : undefined;
    const next = to?.length === 1 ? to[0] : code;
    if (next !== code) changed = true;
    if (out.includes(next)) {
      changed = true;
      continue;
    }
    out.push(next);
  }
  return changed ? out : null;
}

/** Every Rev.2 class's Rev.3 classes, by id (the correspondence as loaded). */
export async function correspondenceTargets(db: Db): Promise<Map<number, number[]>> {
  const targets = new Map<number, number[]>();
  for (const p of await db.select().from(caenCorrespondence)) targets.set(p.rev2Id, [...(targets.get(p.rev2Id) ?? []), p.rev3Id]);
  return targets;
}

/** The Rev.3 classes a Rev.2 class became, by Rev.2 id. */
export async function currentEquivalents(db: Db, rev2Ids: number[]): Promise<Map<number, Array<{ id: number; code: string; name: string }>>> {
  const out = new Map<number, Array<{ id: number; code: string; name: string }>>();
  if (!rev2Ids.length) return out;
  const rows = await db
    .select({ from: caenCorrespondence.rev2Id, id: caenCodes.id, code: caenCodes.code, name: caenCodes.name })
    .from(caenCorrespondence)
    .innerJoin(caenCodes, eq(caenCodes.id, caenCorrespondence.rev3Id))
    .where(sql`${caenCorrespondence.rev2Id} in ${rev2Ids}`)
    .orderBy(caenCodes.code);
  for (const r of rows) out.set(r.from, [...(out.get(r.from) ?? []), { id: r.id, code: r.code, name: r.name }]);
  return out;
}

/** The id of a class of the current revision by its four digits, or null. */
export async function currentCaenId(db: Db, code: string | null): Promise<number | null> {
  if (!code) return null;
  const [row] = await db
    .select({ id: caenCodes.id })
    .from(caenCodes)
    .where(and(eq(caenCodes.code, code), eq(caenCodes.revision, CURRENT_CAEN_REVISION)));
  return row?.id ?? null;
}
