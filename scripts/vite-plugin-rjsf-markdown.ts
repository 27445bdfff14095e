import fs from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';

const MARKDOWN_OPTION = /"ui:enableMarkdownIn(?:Description|Help)"\s*:\s*true/;

/** The flow files (flows/*.json) that turn rjsf's markdown on somewhere. */
export function flowsUsingMarkdown(flowsDir: string): string[] {
  return fs
    .readdirSync(flowsDir)
    .filter((f) => f.endsWith('.json') && f !== 'flow.schema.json')
    .filter((f) => MARKDOWN_OPTION.test(fs.readFileSync(path.join(flowsDir, f), 'utf8')));
}

/**
 * Keeps markdown-to-jsx (86 KB) out of the step pages while no flow file uses markdown: @rjsf/core's
 * `import { Markdown } from 'markdown-to-jsx/react'` resolves to src/engine/plain-markdown.ts, which
 * shows the text as it is. As soon as a flow file sets `"ui:enableMarkdownInDescription": true` or
 * `"ui:enableMarkdownInHelp": true`, the real package is bundled again (decided at each build).
 */
export function rjsfMarkdownOnlyWhenUsed(root = process.cwd()): Plugin {
  const shim = path.resolve(root, 'src/engine/plain-markdown.ts');
  // The flow walker's other flow files, when set (scripts/vite-plugin-flows-dir.ts).
  const flowsDir = path.resolve(root, process.env.E2E_FLOWS_DIR || 'flows');
  let markdownUsed = true;
  return {
    name: 'ghiseu:rjsf-markdown-only-when-used',
    enforce: 'pre',
    buildStart() {
      markdownUsed = flowsUsingMarkdown(flowsDir).length > 0;
      for (const f of fs.readdirSync(flowsDir)) if (f.endsWith('.json')) this.addWatchFile(path.join(flowsDir, f));
    },
    async resolveId(source, importer) {
      if (markdownUsed || source !== 'markdown-to-jsx/react' || !importer) return null;
      if (!importer.replace(/\\/g, '/').includes('/node_modules/@rjsf/')) return null;
      return this.resolve(shim, importer, { skipSelf: true });
    },
  };
}
