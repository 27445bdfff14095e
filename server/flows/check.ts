/**
 * The checks of `npm run flows:check` (scripts/flows-check.ts) and of the staff preview
 * (`GET /api/staff/preview`). Every mistake of a run is reported, each where it is written (a file and
 * a JSON pointer into it), never as an exception:
 * - files that are not JSON (line and column), step schemas that are no valid JSON Schema (by name);
 * - every flow file against the meta-schema (flows/flow.schema.json), every variant patch against the
 *   patch schema derived from the step's (server/flows/patch-schema.ts), every patched step against the step's;
 * - unique step ids, variant ids and paths under the flow's base path; every step schema exists in schemas/;
 *   every ui:widget / ui:field name is in widgets/registry.ts (its names: widgets/names.json); every step
 *   `rule` names a rule of server/registration/step-rules.ts; every locale key exists in locales/ro and
 *   locales/en; every endpoint is a route of the server; every partner and activity a condition names is
 *   in the seed data; every CAEN code named (locked codes, activities' defaults) is a CAEN Rev.3 class;
 * - the wiring of each step: examples valid against its schema, uiSchema keys and submit.payload
 *   pointers that name a property of it, `store` naming fields the payload sends;
 * - every step is reachable and every variant applies to some request; and, in the command only (the
 *   server has no tests folder), every widget of a ready step has a flow walker driver.
 * Steps are checked as written (base steps alone, each patch on its base step) and as every request
 * sees them (each partner × activity × paid); a mistake in a patch is reported in the patch
 * (`#/variants/1/steps/requesting-company-step-6/uiSchema`), one in a base step that only shows with
 * some variants says "(with …)". Pure over its input: the caller reads the files and knows the routes.
 *
 * The modules: check-input.ts (what is read, and the URLs a flow calls), check-schemas.ts (the
 * meta-schema and the step schemas compiled), check-file.ts (one flow file: structure, variants and
 * patches, every request), check-step.ts (one step: texts, widgets, rules, routes, wiring).
 */
import { checkFile, type Report } from './check-file';
import type { CheckInput } from './check-input';
import { compileSchemas } from './check-schemas';
import type { Problem } from './problems';

export type { Problem } from './problems';
export { checkInput, flowEndpoints, readFlowFiles, type CheckInput, type InputOptions } from './check-input';

export function checkFlows(input: CheckInput): Problem[] {
  const problems: Problem[] = [...input.unreadable];
  input.activityCaen.forEach(({ code, caen }, i) => {
    if (caen !== null && !input.caenCodes.has(caen)) {
      problems.push({ level: 'error', file: 'server/db/seed/activities.json', path: `#/activities/${i}/caen`, message: `activity ${code}: ${caen} is not a CAEN Rev.3 class` });
    }
  });

  const schemas = compileSchemas(input, problems);
  if (!schemas) return problems;

  const types = new Map<number, string>();
  for (const { file, flow } of input.files) {
    const reported = new Set<string>();
    const found: Problem[] = [];
    // The same problem seen through several variants or requests is reported once (with the first variants that show it).
    const report: Report = (level, pointer, message) => {
      const key = `${pointer} ${message.replace(/ \(with [^)]*\)$/, '')}`;
      if (reported.has(key)) return;
      reported.add(key);
      found.push({ level, file, path: `#${pointer}`, message });
    };
    try {
      checkFile(input, schemas, types, file, flow, report);
    } catch (error) {
      // A mistake the checks above did not foresee: still a line with the file, never a stack trace.
      report('error', '', `the check stopped here: ${(error as Error).message}`);
    }
    // In the order of the file's pointers (steps/2 before steps/10), as one reads it.
    problems.push(...found.sort((a, b) => a.path.localeCompare(b.path, 'en', { numeric: true })));
  }
  return problems;
}
