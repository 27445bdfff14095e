import type { ReactNode } from 'react';

/**
 * `markdown-to-jsx/react` as @rjsf/core sees it when no flow file turns markdown on
 * (scripts/vite-plugin-rjsf-markdown.ts): the text as it is. rjsf renders markdown only for
 * `ui:enableMarkdownInDescription` / `ui:enableMarkdownInHelp` (and in its developer error
 * messages), and markdown-to-jsx is 86 KB of JavaScript on every step.
 */
export function Markdown({ children }: { children?: ReactNode }): ReactNode {
  return children ?? null;
}
