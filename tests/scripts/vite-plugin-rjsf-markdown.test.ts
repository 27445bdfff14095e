import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { flowsUsingMarkdown, rjsfMarkdownOnlyWhenUsed } from '../../scripts/vite-plugin-rjsf-markdown';

const roots: string[] = [];
afterEach(() => {
  for (const dir of roots.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A project folder with the given flow files. */
function project(flows: Record<string, unknown>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'rjsf-markdown-'));
  roots.push(root);
  fs.mkdirSync(path.join(root, 'flows'));
  for (const [name, content] of Object.entries(flows)) fs.writeFileSync(path.join(root, 'flows', name), JSON.stringify(content));
  return root;
}

/** What the plugin makes of rjsf's `import … from 'markdown-to-jsx/react'` in a build of `root`. */
async function resolveFromRjsf(root: string, importer = '/app/node_modules/@rjsf/core/lib/components/RichHelp.js') {
  const plugin = rjsfMarkdownOnlyWhenUsed(root);
  const context = { addWatchFile: () => undefined, resolve: async (id: string) => ({ id }) };
  (plugin.buildStart as (this: unknown) => void).call(context);
  return (plugin.resolveId as (this: unknown, source: string, importer?: string) => Promise<{ id: string } | null>).call(context, 'markdown-to-jsx/react', importer);
}

const step = (uiSchema: unknown) => ({ steps: [{ id: 's', uiSchema }] });

describe('markdown-to-jsx only when a flow file uses markdown', () => {
  it('without markdown in the flows, rjsf gets the plain-text Markdown of src/engine', async () => {
    const root = project({ 'a.json': step({ x: { 'ui:help': 'steps:x.help' } }), 'flow.schema.json': { enableMarkdown: true } });
    expect(await resolveFromRjsf(root)).toEqual({ id: path.join(root, 'src/engine/plain-markdown.ts') });
  });

  it('a flow with ui:enableMarkdownInDescription or ui:enableMarkdownInHelp keeps the real package', async () => {
    for (const option of ['ui:enableMarkdownInDescription', 'ui:enableMarkdownInHelp']) {
      const root = project({ 'a.json': step({}), 'b.json': step({ x: { [option]: true } }) });
      expect(flowsUsingMarkdown(path.join(root, 'flows'))).toEqual(['b.json']);
      expect(await resolveFromRjsf(root)).toBeNull();
    }
  });

  it('only rjsf imports are redirected', async () => {
    const root = project({ 'a.json': step({}) });
    expect(await resolveFromRjsf(root, '/app/src/pages/Other.tsx')).toBeNull();
  });
});

describe('the plain-text Markdown', () => {
  it('shows the text as it is', async () => {
    const { Markdown } = await import('../../src/engine/plain-markdown');
    expect(Markdown({ children: 'Cod **fiscal**' })).toBe('Cod **fiscal**');
    expect(Markdown({})).toBeNull();
  });
});
