import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { ConfigEnv } from 'vite';
import { afterEach, describe, expect, it } from 'vitest';
import { precompress, SOURCE_MAPS_DIR } from '../../scripts/vite-plugin-precompress';

/**
 * The last step of the app's build (scripts/vite-plugin-precompress.ts): source maps out of the served
 * folder, and a brotli and a gzip twin of every text file the server sends.
 */
const roots: string[] = [];
afterEach(() => {
  for (const dir of roots.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A build's output folder `out/` in a project folder of its own. */
function built(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'precompress-'));
  roots.push(root);
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, 'out', name)), { recursive: true });
    fs.writeFileSync(path.join(root, 'out', name), text);
  }
  return root;
}

type Hooks = { configResolved: (config: object) => void; closeBundle: { order: string; sequential: boolean; handler: () => void } };
function runAfterBuild(root: string, options?: { mapsDir?: string }) {
  const plugin = precompress(options) as unknown as Hooks;
  plugin.configResolved({ root, build: { outDir: 'out' } });
  plugin.closeBundle.handler();
  return plugin;
}

const FILES = {
  'index.html': '<!doctype html><html><body>'.padEnd(400, ' ') + '</body></html>',
  'assets/main-a1.js': 'export const a = 1;\n'.repeat(50),
  'assets/main-a1.js.map': '{"version":3,"mappings":"AAAA"}',
  'assets/style-b2.css': 'body { margin: 0 }\n'.repeat(20),
  'assets/logo-c3.png': 'PNG',
  'pages/login.html': '<html></html>',
  '.vite/manifest.json': '{}',
};

describe('the plugin precompress', () => {
  it("applies to the app's client build only", () => {
    const apply = (env: ConfigEnv) => (precompress().apply as (config: object, env: ConfigEnv) => boolean)({}, env);
    expect(apply({ command: 'build', mode: 'production', isSsrBuild: false })).toBe(true);
    expect(apply({ command: 'build', mode: 'production', isSsrBuild: true })).toBe(false);
    expect(apply({ command: 'serve', mode: 'development' })).toBe(false);
  });

  it('runs after the other plugins have written their files (the guest pages), one at a time', () => {
    const { closeBundle } = precompress() as unknown as Hooks;
    expect(closeBundle.order).toBe('post');
    expect(closeBundle.sequential).toBe(true);
  });

  it(`moves the source maps to ${SOURCE_MAPS_DIR}/ and writes a .br and a .gz of every text file, not of the manifests or images`, () => {
    const root = built(FILES);
    fs.mkdirSync(path.join(root, SOURCE_MAPS_DIR, 'old'), { recursive: true });
    fs.writeFileSync(path.join(root, SOURCE_MAPS_DIR, 'old', 'stale.js.map'), '{}');
    runAfterBuild(root);
    const out = (name: string) => path.join(root, 'out', name);
    expect(fs.existsSync(out('assets/main-a1.js.map'))).toBe(false);
    expect(fs.readFileSync(path.join(root, SOURCE_MAPS_DIR, 'assets/main-a1.js.map'), 'utf8')).toBe(FILES['assets/main-a1.js.map']);
    // The maps folder holds this build's maps only.
    expect(fs.existsSync(path.join(root, SOURCE_MAPS_DIR, 'old'))).toBe(false);
    for (const name of ['index.html', 'assets/main-a1.js', 'assets/style-b2.css', 'pages/login.html']) {
      expect(brotliDecompressSync(fs.readFileSync(out(`${name}.br`))).toString(), name).toBe(FILES[name as keyof typeof FILES]);
      expect(gunzipSync(fs.readFileSync(out(`${name}.gz`))).toString(), name).toBe(FILES[name as keyof typeof FILES]);
    }
    expect(fs.readFileSync(out('assets/main-a1.js.br')).length).toBeLessThan(FILES['assets/main-a1.js'].length);
    for (const name of ['assets/logo-c3.png', '.vite/manifest.json', 'assets/main-a1.js.map']) {
      expect(fs.existsSync(out(`${name}.br`)), name).toBe(false);
      expect(fs.existsSync(out(`${name}.gz`)), name).toBe(false);
    }
  });

  it('takes another maps folder, relative to the project', () => {
    const root = built(FILES);
    runAfterBuild(root, { mapsDir: 'elsewhere/maps' });
    expect(fs.existsSync(path.join(root, 'elsewhere/maps/assets/main-a1.js.map'))).toBe(true);
    expect(fs.existsSync(path.join(root, SOURCE_MAPS_DIR))).toBe(false);
  });
});
