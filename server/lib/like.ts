/** `term` for a LIKE pattern: its wildcard characters (`%`, `_`) and the escape character escaped. */
export const escapeLike = (term: string) => term.replace(/[\\%_]/g, (c) => `\\${c}`);
