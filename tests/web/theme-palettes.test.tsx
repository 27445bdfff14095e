import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PALETTES, system } from '@/shared/theme';

/**
 * The Chakra system keeps only the colour palettes the app uses (src/shared/theme.ts, issue 14: fewer
 * tokens to resolve at start-up and fewer CSS variables on every page). A palette named in the code
 * but left out of the system would render without colour: every palette and colour token the
 * browser code names must be in the system.
 */

const CHAKRA_PALETTES = ['gray', 'red', 'orange', 'yellow', 'green', 'teal', 'blue', 'cyan', 'purple', 'pink', 'brand'];

function sources(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.(tsx?|json)$/.test(file))
    .map((file) => path.join(dir, file));
}

const code = ['src', 'widgets'].flatMap((dir) => sources(path.resolve(dir))).map((file) => ({ file, text: fs.readFileSync(file, 'utf8') }));

const hasToken = (name: string) => system.tokens.getByName(name) !== undefined;

describe('colour palettes of the Chakra system', () => {
  it('every colorPalette the code names is in the system', () => {
    const named = new Set<string>();
    for (const { text } of code) {
      for (const match of text.matchAll(/colorPalette[=:]\s*\{?\s*["'`]([a-zA-Z]+)["'`]/g)) named.add(match[1]);
    }
    expect(named.size).toBeGreaterThan(0);
    for (const palette of named) {
      expect(hasToken(`colors.${palette}.solid`), `colorPalette "${palette}"`).toBe(true);
    }
  });

  it('every colour token the code names (red.700, {colors.blue.fg}) is in the system', () => {
    const pattern = new RegExp(`["'{.\\s](?:colors\\.)?(${CHAKRA_PALETTES.join('|')})\\.(\\d{2,3}|solid|contrast|fg|muted|subtle|emphasized|focusRing|border)\\b`, 'g');
    const missing: string[] = [];
    let seen = 0;
    for (const { file, text } of code) {
      for (const match of text.matchAll(pattern)) {
        seen++;
        if (!hasToken(`colors.${match[1]}.${match[2]}`)) missing.push(`${path.relative(process.cwd(), file)}: ${match[1]}.${match[2]}`);
      }
    }
    expect(seen).toBeGreaterThan(0);
    expect(missing).toEqual([]);
  });

  it('has the brand, the neutral and the status palettes of alerts and toasts, and not the others', () => {
    for (const palette of ['brand', ...PALETTES]) expect(hasToken(`colors.${palette}.solid`), palette).toBe(true);
    for (const palette of ['info', 'warning', 'success', 'error']) expect(hasToken(`colors.fg.${palette}`), `fg.${palette}`).toBe(true);
    expect(hasToken('colors.purple.500')).toBe(false);
  });
});
