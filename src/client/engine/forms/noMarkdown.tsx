/**
 * What RJSF imports from markdown-to-jsx (webpack's alias in webpack.config.ts): the portal's forms turn no Markdown on
 * (no `enableMarkdownInDescription` or `enableMarkdownInHelp`, no file widget; test/configuration/noMarkdown.test.ts),
 * so RJSF's only other use is the text of its own configuration errors, shown here as it is. It leaves ~87 KB (4 KB
 * brotli) out of the form engine's chunk, which a cold load brings after the frame (issue 47).
 */
import type { ReactNode } from 'react';

export function Markdown({ children }: { children?: ReactNode }): ReactNode {
  return children ?? null;
}
