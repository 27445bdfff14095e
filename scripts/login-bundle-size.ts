/**
 * `npm run size:login [-- --page src/pages/Login.tsx] [--forbid rjsf --forbid ajv] [--build] [--dist dist]`
 *
 * How much JavaScript the `/login` route loads, from the Vite manifest of a production build
 * (`dist/.vite/manifest.json`, needs `build.manifest: true`): the entry chunk and its static imports
 * (recursively) plus the login page's chunk and its static imports. Prints every file with its raw and
 * gzip (level 9) size and the total, and fails (exit 1) when one of those chunks contains a forbidden
 * marker (DESIGN.md: "the login page ships no wizard code"). Default markers: rjsf, ajv, signature_pad;
 * each `--forbid` (repeatable, or comma-separated) replaces the default list.
 *
 * `--build` runs `vite build` first; otherwise the existing dist/ is measured.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';

/** One entry of `.vite/manifest.json` (https://vite.dev/guide/backend-integration). */
export interface ManifestChunk {
  file: string;
  name?: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
  assets?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

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

interface Args {
  page?: string;
  forbid: string[];
  dist: string;
  build: boolean;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { forbid: [], dist: 'dist', build: false };
  let forbidGiven = false;
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s, 2);
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined) throw new Error(`${flag} needs a value`);
      return v;
    };
    switch (flag) {
      case '--page':
        args.page = value();
        break;
      case '--forbid':
        forbidGiven = true;
        args.forbid.push(...value().split(',').map((s) => s.trim()).filter(Boolean));
        break;
      case '--dist':
        args.dist = value();
        break;
      case '--build':
        args.build = true;
        break;
      case '--help':
      case '-h':
        console.log('usage: tsx scripts/login-bundle-size.ts [--page <src>] [--forbid <marker>[,<marker>]]... [--dist dist] [--build]');
        process.exit(0);
        break;
      default:
        throw new Error(`unknown argument ${argv[i]}`);
    }
  }
  if (!forbidGiven) args.forbid = [...DEFAULT_FORBIDDEN];
  return args;
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

function main(): number {
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

  const manifestPath = path.join(dist, '.vite', 'manifest.json');
  if (!fs.existsSync(manifestPath)) {
    console.error(
      `${path.relative(root, manifestPath)} is missing: build first (\`npx vite build\`, or pass --build); ` +
        'vite.config.ts must set `build.manifest: true`.',
    );
    return 1;
  }
  const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as Manifest;

  const entries = Object.keys(manifest).filter((k) => manifest[k].isEntry);
  if (entries.length === 0) {
    console.error('The manifest has no entry chunk (isEntry).');
    return 1;
  }

  const page = findPage(manifest, args.page);
  if (!page) {
    if (args.page) {
      console.error(`No chunk in the manifest matches --page ${args.page}. Page chunks:`);
      for (const k of Object.keys(manifest).filter((k) => manifest[k].isDynamicEntry)) console.error(`  ${manifest[k].src ?? k}`);
      return 1;
    }
    console.warn('No login page chunk in the manifest (is the page part of the entry chunk?): measuring the entry only.');
  } else if (entries.includes(page)) {
    console.warn(`The login page ${page} is an entry itself.`);
  }

  const keys = staticClosure(manifest, page ? [...entries, page] : entries);
  const rows = keys.map((key) => {
    const chunk = manifest[key];
    const code = fs.readFileSync(path.join(dist, chunk.file));
    return {
      key,
      file: chunk.file,
      role: entries.includes(key) ? 'entry' : key === page ? 'login page' : 'static import',
      raw: code.length,
      gzip: gzipSync(code, { level: 9 }).length,
      hits: findMarkers(chunk.file, code.toString('utf8'), args.forbid),
    };
  });

  const fileWidth = Math.max(4, ...rows.map((r) => r.file.length));
  const roleWidth = Math.max(4, ...rows.map((r) => r.role.length));
  const line = (file: string, role: string, raw: string, gzip: string) =>
    `${file.padEnd(fileWidth)}  ${role.padEnd(roleWidth)}  ${raw.padStart(12)}  ${gzip.padStart(12)}`;
  console.log(`JavaScript loaded by /login (${page ? `page chunk: ${manifest[page].src ?? page}` : 'entry only'}):\n`);
  console.log(line('file', 'role', 'raw bytes', 'gzip bytes'));
  console.log('-'.repeat(fileWidth + roleWidth + 30));
  for (const r of rows) console.log(line(r.file, r.role, String(r.raw), String(r.gzip)));
  console.log('-'.repeat(fileWidth + roleWidth + 30));
  const totalRaw = rows.reduce((s, r) => s + r.raw, 0);
  const totalGzip = rows.reduce((s, r) => s + r.gzip, 0);
  console.log(line(`${rows.length} files`, 'total', String(totalRaw), String(totalGzip)));
  console.log(`\nTotal: ${kib(totalGzip)} gzip (${kib(totalRaw)} raw).`);

  const hits = rows.flatMap((r) => r.hits);
  if (hits.length > 0) {
    console.error(`\nForbidden code in the /login bundle (markers: ${args.forbid.join(', ')}):`);
    for (const h of hits) console.error(`  ${h.file}: contains "${h.marker}"  …${h.context}…`);
    return 1;
  }
  console.log(`No forbidden marker (${args.forbid.join(', ') || 'none'}) in these chunks.`);
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  try {
    process.exitCode = main();
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  }
}
