/**
 * `npm run size:login [-- --budget 120] [--page /login=src/guest/pages/login.ts] [--forbid rjsf] [--build] [--dist dist]`
 *
 * How much JavaScript each guest page (/login, /register, /register/account, /password/forgot) loads
 * before it is usable, from the manifest of the guest build (`dist/.vite/guest-manifest.json`, written by
 * vite.guest.config.ts, which `vite build` runs): the page's entry chunk and everything it imports,
 * statically or dynamically, recursively (what its HTML loads: scripts/vite-plugin-route-pages.ts). Prints every file with its raw
 * and gzip (level 9) size and the total per page, and fails (exit 1)
 * - when a page's gzip total is above the budget (`--budget` KiB, default `BUDGET_KIB` = issue 14's
 *   120), naming the page and its chunks, largest first (bytes are deterministic, unlike times);
 * - when one of those chunks contains a forbidden marker (DESIGN.md: "the login page ships no wizard
 *   code"). Default markers: rjsf, ajv, signature_pad; each `--forbid` (repeatable, or comma-separated)
 *   replaces the default list;
 * - when a Chakra component in the app's or the guest build asks for a recipe src/shared/theme.ts lacks.
 *
 * `--page route=entry` (repeatable) replaces the default pages. `--build` runs `vite build` first;
 * otherwise the existing dist/ is measured. `npm test` runs it right after the e2e build.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { Manifest } from 'vite';
import { GUEST_MANIFEST, pageChunks, ROUTE_PAGES } from './guest-pages.ts';


export const DEFAULT_FORBIDDEN = ['rjsf', 'ajv', 'signature_pad'];

/** The manifest key of the login page: `--page` (key, src, or a path ending / containing it) or a guess. */
export function findPage(manifest: Manifest, page?: string): string | null {
  const keys = Object.keys(manifest).filter((k) => manifest[k].file.endsWith('.js'));
  const srcOf = (k: string) => manifest[k].src ?? k;
  if (page) {
    const wanted = page.replace(/^\.\//, '');
    return (
      keys.find((k) => k === wanted || srcOf(k) === wanted) ??
      keys.find((k) => srcOf(k).endsWith(`/${wanted}`)) ??
      keys.find((k) => srcOf(k).includes(wanted)) ??
      null
    );
  }
  const guesses = [
    (s: string) => /^src\/pages\/Login(Page)?(\/index)?\.[cm]?[jt]sx?$/.test(s),
    (s: string) => /(^|\/)Login(Page)?(\/index)?\.[cm]?[jt]sx?$/.test(s),
    (s: string) => /(^|\/)login(\/index)?\.[cm]?[jt]sx?$/i.test(s),
    (s: string) => s.includes('Login'),
  ];
  for (const guess of guesses) {
    const found = keys.filter((k) => guess(srcOf(k))).sort((a, b) => srcOf(a).length - srcOf(b).length);
    if (found.length > 0) return found[0];
  }
  return null;
}

/** Manifest keys reached from `roots` through static imports, in load order (roots first), without duplicates. */
export function staticClosure(manifest: Manifest, roots: string[]): string[] {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    if (!manifest[key]) throw new Error(`the manifest has no entry ${key}`);
    seen.add(key);
    for (const imported of manifest[key].imports ?? []) visit(imported);
  };
  for (const root of roots) visit(root);
  return [...seen];
}

/**
 * The code of a chunk without the names of other chunks: Vite's preload list (`__vite__mapDeps`), dynamic
 * `import("./x-hash.js")` and the source-map comment mention chunk file names, which may contain a marker
 * (`validator-ajv8-….js`) although the code itself does not load it.
 */
export function codeOnly(code: string): string {
  return code
    .replace(/\/\/# sourceMappingURL=\S+/g, '')
    .replace(/(["'`])(?:\.{0,2}\/)*(?:[\w@.-]+\/)*[\w@.-]+\.(?:m?js|css)\1/g, '""');
}

export interface Hit {
  marker: string;
  file: string;
  context: string;
}

export function findMarkers(file: string, code: string, markers: string[]): Hit[] {
  const text = codeOnly(code);
  const hits: Hit[] = [];
  for (const marker of markers) {
    const at = text.indexOf(marker);
    if (at < 0) continue;
    const context = text.slice(Math.max(0, at - 40), at + marker.length + 40).replace(/\s+/g, ' ');
    hits.push({ marker, file, context });
  }
  return hits;
}

/** The guest pages: every applicant sees one of them first (issue 14); `page` is the page's guest entry. */
export const GUEST_PAGES: { route: string; page: string }[] = ROUTE_PAGES.map(({ route, entry }) => ({ route, page: entry }));

/** The budget CI holds the guest pages to, KiB of gzip JavaScript: issue 14's target. */
export const TARGET_KIB = 120;
export const BUDGET_KIB = TARGET_KIB;

export interface Row {
  key: string;
  file: string;
  role: string;
  raw: number;
  gzip: number;
  hits: Hit[];
}

/** The chunks one page loads before it is usable (its entry and what it imports, statically or not), with their sizes. */
export function pageRows(manifest: Manifest, dist: string, page: string, forbid: string[]): Row[] {
  const entries = Object.keys(manifest).filter((k) => manifest[k].isEntry);
  const staticKeys = new Set(staticClosure(manifest, [page]));
  return pageChunks(manifest, page).map((key) => {
    const chunk = manifest[key];
    const code = fs.readFileSync(path.join(dist, chunk.file));
    return {
      key,
      file: chunk.file,
      role: key === page ? 'page entry' : entries.includes(key) ? 'entry' : staticKeys.has(key) ? 'static import' : 'dynamic import',
      raw: code.length,
      gzip: gzipSync(code, { level: 9 }).length,
      hits: findMarkers(chunk.file, code.toString('utf8'), forbid),
    };
  });
}

/** The message of a page above the budget: its total and its chunks, largest first. */
export function overBudget(route: string, rows: Row[], budgetKiB: number, top = 12): string | null {
  const total = rows.reduce((sum, r) => sum + r.gzip, 0);
  if (total <= budgetKiB * 1024) return null;
  const largest = [...rows].sort((a, b) => b.gzip - a.gzip);
  const lines = largest.slice(0, top).map((r) => `    ${kib(r.gzip).padStart(10)}  ${r.file}  (${r.key})`);
  if (largest.length > top) lines.push(`    … and ${largest.length - top} smaller chunks`);
  return `${route} loads ${kib(total)} of JavaScript (gzip), above the budget of ${budgetKiB} KiB, by ${kib(total - budgetKiB * 1024)}. Its chunks, largest first:\n${lines.join('\n')}`;
}

/**
 * Chakra recipe keys the built chunks ask for (`createRecipeContext({ key: "button" })`, minified to
 * ``{key:`button`}``) that the app's system (src/shared/theme.ts, a subset of Chakra's recipes) lacks: such
 * a component would render unstyled.
 */
export async function missingRecipes(dist: string, files: string[]): Promise<string[]> {
  const [{ defaultConfig }, { system }] = await Promise.all([import('@chakra-ui/react'), import('../src/shared/theme')]);
  const chakraKeys = new Set([...Object.keys(defaultConfig.theme?.recipes ?? {}), ...Object.keys(defaultConfig.theme?.slotRecipes ?? {})]);
  const asked = new Set<string>();
  for (const file of files) {
    const code = fs.readFileSync(path.join(dist, file), 'utf8');
    for (const m of code.matchAll(/\{\s*key:\s*[`"']([A-Za-z]+)[`"']/g)) if (chakraKeys.has(m[1])) asked.add(m[1]);
  }
  return [...asked].filter((key) => !system.isRecipe(key) && !system.isSlotRecipe(key)).sort();
}

interface Args {
  pages: { route: string; page: string }[];
  forbid: string[];
  dist: string;
  build: boolean;
  budget: number;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { pages: [], forbid: [], dist: 'dist', build: false, budget: BUDGET_KIB };
  let forbidGiven = false;
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s, 2);
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined) throw new Error(`${flag} needs a value`);
      return v;
    };
    switch (flag) {
      case '--page': {
        const v = value();
        const at = v.indexOf('=');
        args.pages.push(at > 0 ? { route: v.slice(0, at), page: v.slice(at + 1) } : { route: v, page: v });
        break;
      }
      case '--forbid':
        forbidGiven = true;
        args.forbid.push(...value().split(',').map((s) => s.trim()).filter(Boolean));
        break;
      case '--dist':
        args.dist = value();
        break;
      case '--budget':
        args.budget = Number(value());
        if (!(args.budget > 0)) throw new Error('--budget needs a number of KiB');
        break;
      case '--build':
        args.build = true;
        break;
      case '--help':
      case '-h':
        console.log('usage: tsx scripts/login-bundle-size.ts [--budget KiB] [--page <route>=<src>]... [--forbid <marker>[,<marker>]]... [--dist dist] [--build]');
        process.exit(0);
        break;
      default:
        throw new Error(`unknown argument ${argv[i]}`);
    }
  }
  if (!forbidGiven) args.forbid = [...DEFAULT_FORBIDDEN];
  if (args.pages.length === 0) args.pages = [...GUEST_PAGES];
  return args;
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

async function main(): Promise<number> {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const args = parseArgs(process.argv.slice(2));
  const dist = path.resolve(root, args.dist);

  if (args.build) {
    const build = spawnSync(path.join(root, 'node_modules', '.bin', 'vite'), ['build'], { cwd: root, stdio: 'inherit' });
    if (build.status !== 0) {
      console.error('vite build failed.');
      return 1;
    }
  }

  const manifestPath = path.join(dist, GUEST_MANIFEST);
  const appManifestPath = path.join(dist, '.vite', 'manifest.json');
  for (const file of [manifestPath, appManifestPath]) {
    if (!fs.existsSync(file)) {
      console.error(
        `${path.relative(root, file)} is missing: build first (\`npx vite build\`, or pass --build); ` +
          'vite.config.ts and vite.guest.config.ts must write their manifest.',
      );
      return 1;
    }
  }
  const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as Manifest;
  const appManifest = JSON.parse(fs.readFileSync(appManifestPath, 'utf8')) as Manifest;
  if (!Object.values(manifest).some((c) => c.isEntry)) {
    console.error('The guest manifest has no entry chunk (isEntry).');
    return 1;
  }

  const failures: string[] = [];
  const summary: string[] = [];
  for (const { route, page: wanted } of args.pages) {
    const page = findPage(manifest, wanted);
    if (!page) {
      console.error(`No chunk in the manifest matches the page of ${route} (${wanted}). Page chunks:`);
      for (const k of Object.keys(manifest).filter((k) => manifest[k].isEntry)) console.error(`  ${manifest[k].src ?? k}`);
      return 1;
    }
    const rows = pageRows(manifest, dist, page, args.forbid);
    const fileWidth = Math.max(4, ...rows.map((r) => r.file.length));
    const line = (file: string, role: string, raw: string, gzip: string) =>
      `${file.padEnd(fileWidth)}  ${role.padEnd(14)}  ${raw.padStart(10)}  ${gzip.padStart(10)}`;
    console.log(`\nJavaScript loaded by ${route} (page chunk: ${manifest[page].src ?? page}):\n`);
    console.log(line('file', 'role', 'raw bytes', 'gzip bytes'));
    console.log('-'.repeat(fileWidth + 42));
    for (const r of rows) console.log(line(r.file, r.role, String(r.raw), String(r.gzip)));
    console.log('-'.repeat(fileWidth + 42));
    const totalRaw = rows.reduce((s, r) => s + r.raw, 0);
    const totalGzip = rows.reduce((s, r) => s + r.gzip, 0);
    console.log(line(`${rows.length} files`, 'total', String(totalRaw), String(totalGzip)));
    summary.push(`${route.padEnd(18)} ${kib(totalGzip).padStart(10)} gzip  ${kib(totalRaw).padStart(10)} raw  ${String(rows.length).padStart(3)} files`);
    for (const h of rows.flatMap((r) => r.hits)) {
      failures.push(`${route}: ${h.file} contains "${h.marker}" (forbidden on the guest pages)  …${h.context}…`);
    }
    const over = overBudget(route, rows, args.budget);
    if (over) failures.push(over);
  }

  const jsFiles = [...new Set([...Object.values(manifest), ...Object.values(appManifest)].map((c) => c.file).filter((f) => f.endsWith('.js')))];
  const missing = await missingRecipes(dist, jsFiles);
  if (missing.length > 0) failures.push(`Chakra recipes used by the built app but missing from src/shared/theme.ts: ${missing.join(', ')}`);

  console.log(`\nGuest pages (budget ${args.budget} KiB gzip; issue 14 target ${TARGET_KIB} KiB):`);
  for (const s of summary) console.log(`  ${s}`);
  if (failures.length > 0) {
    console.error('');
    for (const f of failures) console.error(f);
    return 1;
  }
  console.log(`Within the budget; no forbidden marker (${args.forbid.join(', ') || 'none'}) in these chunks.`);
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main().then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exitCode = 1;
    },
  );
}
