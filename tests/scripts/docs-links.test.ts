import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** README.md and every Markdown page under docs/, as paths relative to the repository. */
function pages(): string[] {
  const docs = fs.readdirSync(path.join(root, 'docs'), { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.md'));
  return ['README.md', ...docs.map((file) => path.join('docs', file))];
}

/** The text outside fenced code blocks (a link or heading inside an example is not one). */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '');
}

/** The text outside code: fenced blocks and `inline spans`. */
function linkable(markdown: string): string {
  return prose(markdown).replace(/`[^`\n]*`/g, '');
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens; repeats get -1, -2… */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const [, heading] of prose(markdown).matchAll(/^#{1,6}\s+(.+?)\s*$/gm)) {
    const slug = heading.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    result.add(count ? `${slug}-${count}` : slug);
  }
  return result;
}

/** Every relative link of a page: `[text](target)`, without external addresses. */
function relativeLinks(markdown: string): string[] {
  return [...linkable(markdown).matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]).filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

describe('the links of README.md and docs/', () => {
  it('point at files that exist, and at headings that exist in them', () => {
    const broken: string[] = [];
    for (const page of pages()) {
      const text = fs.readFileSync(path.join(root, page), 'utf8');
      for (const link of relativeLinks(text)) {
        const [target, anchor] = link.split('#', 2);
        const file = target ? path.join(path.dirname(path.join(root, page)), decodeURIComponent(target)) : path.join(root, page);
        if (!fs.existsSync(file)) {
          broken.push(`${page}: ${link} (no such file)`);
          continue;
        }
        if (anchor && file.endsWith('.md') && !anchors(fs.readFileSync(file, 'utf8')).has(anchor)) broken.push(`${page}: ${link} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('keep the README short: at most 250 lines', () => {
    expect(fs.readFileSync(path.join(root, 'README.md'), 'utf8').split('\n').length).toBeLessThanOrEqual(250);
  });

  it('finds a broken link and a missing heading (the checker itself)', () => {
    expect(relativeLinks('[a](x.md#b) [c](https://example.com) `[d](e.md)`\n```\n[f](g.md)\n```')).toEqual(['x.md#b']);
    expect([...anchors("# The applicant's data (GDPR)\n## Check: flows:check\n## Check: flows:check")]).toEqual([
      'the-applicants-data-gdpr',
      'check-flowscheck',
      'check-flowscheck-1',
    ]);
  });
});
