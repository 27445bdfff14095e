/**
 * Import circles in the TypeScript sources (issue 15: "no import circles anywhere in server/, src/
 * or widgets/"; issue 34: nor in scripts/, the build's plugins and tools). Every `import`,
 * `export … from` and `import()` of a file is read with the TypeScript compiler's own pre-processor
 * and resolved with the project's compiler options (so a path alias resolves as `tsc` resolves it);
 * type-only imports count too, since a circle of types is still two modules that cannot be
 * understood one without the other. Each strongly connected group of modules (Tarjan) larger than
 * one file, or a file importing itself, is a circle.
 *
 * `npx tsx scripts/import-cycles.ts [dir…]` prints the circles and exits 1 when there is one;
 * tests/core/no-cycles.test.ts runs the same check in CI.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const SOURCE = /\.(ts|tsx|mts|cts)$/;

/** Every TypeScript file under `dir` (node_modules and dot folders skipped). */
export function sourceFiles(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...sourceFiles(path));
    else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts')) found.push(path);
  }
  return found;
}

/** The project's compiler options from `tsconfig.json` in `root` (defaults when there is none). */
function compilerOptions(root: string): ts.CompilerOptions {
  const configPath = ts.findConfigFile(root, ts.sys.fileExists, 'tsconfig.json');
  if (!configPath || !configPath.startsWith(root)) {
    return { moduleResolution: ts.ModuleResolutionKind.Bundler, module: ts.ModuleKind.ESNext, allowImportingTsExtensions: true, noEmit: true };
  }
  const { config } = ts.readConfigFile(configPath, ts.sys.readFile);
  return ts.parseJsonConfigFileContent(config, ts.sys, root).options;
}

/** The graph: each file to the project files it imports (packages and files outside the set are left out). */
export function importGraph(root: string, files: string[]): Map<string, string[]> {
  const options = compilerOptions(root);
  const host = ts.createCompilerHost(options);
  const known = new Set(files.map((f) => resolve(f)));
  const graph = new Map<string, string[]>();
  for (const file of known) {
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = new Set<string>();
    for (const { fileName } of info.importedFiles) {
      const resolved = ts.resolveModuleName(fileName, file, options, host).resolvedModule?.resolvedFileName;
      if (resolved && known.has(resolve(resolved))) targets.add(resolve(resolved));
    }
    graph.set(file, [...targets].sort());
  }
  return graph;
}

/** The circles of a graph: strongly connected groups of more than one file, or a file that imports itself. */
export function findCycles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];

  // Iterative Tarjan: deep import chains must not overflow the call stack.
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; next: number }[] = [{ node: start, next: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length) {
      const frame = work[work.length - 1];
      const edges = graph.get(frame.node) ?? [];
      if (frame.next < edges.length) {
        const target = edges[frame.next++];
        if (!graph.has(target)) continue;
        if (!index.has(target)) {
          index.set(target, counter);
          low.set(target, counter++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, next: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(target)!));
        }
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(low.get(parent)!, low.get(frame.node)!));
      }
      if (low.get(frame.node) === index.get(frame.node)) {
        const group: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          group.push(member);
        } while (member !== frame.node);
        if (group.length > 1 || edges.includes(frame.node)) groups.push(group.sort());
      }
    }
  }
  return groups;
}

/** The circles among the TypeScript files of `dirs` (relative to `root`), as paths relative to `root`. */
export function importCycles(root: string, dirs: string[]): string[][] {
  const files = dirs.flatMap((dir) => sourceFiles(resolve(root, dir)));
  return findCycles(importGraph(root, files)).map((group) => group.map((f) => relative(root, f)));
}

export const CHECKED_DIRS = ['server', 'src', 'widgets', 'scripts'];

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
  const dirs = process.argv.slice(2).length ? process.argv.slice(2) : CHECKED_DIRS;
  const cycles = importCycles(root, dirs);
  for (const group of cycles) console.log(`import circle (${group.length} files):\n  ${group.join('\n  ')}`);
  console.log(cycles.length ? `${cycles.length} import circle(s) in ${dirs.join(', ')}` : `no import circles in ${dirs.join(', ')}`);
  process.exit(cycles.length ? 1 : 0);
}
