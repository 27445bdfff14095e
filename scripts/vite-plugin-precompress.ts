import fs from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/** Text files the server sends compressed (issue 14 "Transfer"): compressed once here, served as they are. */
export const COMPRESSIBLE = /\.(?:m?js|css|html|svg|json|txt|xml|webmanifest|map)$/;

/** Every file under `dir`, recursively (paths relative to `dir`, with `/`). */
function walk(dir: string, base = ''): string[] {
  return fs.readdirSync(path.join(dir, base), { withFileTypes: true }).flatMap((entry) => {
    const rel = base ? `${base}/${entry.name}` : entry.name;
    return entry.isDirectory() ? walk(dir, rel) : [rel];
  });
}

/**
 * Moves the source maps out of the served folder into `mapsDir` (the build writes them with
 * `sourcemap: 'hidden'`: no `sourceMappingURL` comment, so browsers never ask for them).
 */
export function moveSourceMaps(outDir: string, mapsDir: string): number {
  if (!fs.existsSync(outDir)) return 0;
  fs.rmSync(mapsDir, { recursive: true, force: true });
  let moved = 0;
  for (const rel of walk(outDir).filter((f) => f.endsWith('.map'))) {
    const target = path.join(mapsDir, rel);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.renameSync(path.join(outDir, rel), target);
    moved++;
  }
  return moved;
}

/** Writes `<file>.br` (brotli, quality 11) and `<file>.gz` (gzip, level 9) next to every compressible file of `outDir`. */
export function precompressDir(outDir: string): number {
  let count = 0;
  for (const rel of walk(outDir)) {
    if (!COMPRESSIBLE.test(rel) || rel.startsWith('.vite/')) continue;
    const file = path.join(outDir, rel);
    const bytes = fs.readFileSync(file);
    fs.writeFileSync(
      `${file}.br`,
      brotliCompressSync(bytes, {
        params: {
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
        },
      }),
    );
    fs.writeFileSync(`${file}.gz`, gzipSync(bytes, { level: 9 }));
    count++;
  }
  return count;
}

/** Where the builds' source maps go (never into `dist/`, never served); scripts/bench-trace.ts reads them there. */
export const SOURCE_MAPS_DIR = 'build/sourcemaps';

/**
 * After the build: source maps leave `dist/` (for `build/sourcemaps/`, kept for debugging, never
 * served), then every JS, CSS, HTML, SVG and JSON file gets its `.br` and `.gz` twin, which the
 * server sends by the request's Accept-Encoding (@fastify/static `preCompressed`).
 */
export function precompress(options: { mapsDir?: string } = {}): Plugin {
  let outDir = 'dist';
  let root = process.cwd();
  return {
    name: 'ghiseu:precompress',
    apply: (_config, env) => env.command === 'build' && !env.isSsrBuild,
    configResolved(config) {
      root = config.root;
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      handler() {
        moveSourceMaps(outDir, path.resolve(root, options.mapsDir ?? SOURCE_MAPS_DIR));
        precompressDir(outDir);
      },
    },
  };
}
