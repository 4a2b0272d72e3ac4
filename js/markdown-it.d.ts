// Types of staunton/markdown-it: the markdown-it plugin that draws diagram fences at build time.
import type { Options } from "./figure.js";

export type { Mode, Options } from "./figure.js";

/** The parts of a markdown-it instance the plugin uses. */
export interface MarkdownItLike {
  core: { ruler: { push(name: string, rule: (state: any) => void): void } };
  renderer: { rules: Record<string, any> };
  utils: { unescapeAll(text: string): string };
}

/**
 * markdown-it plugin: each ```fen, ```chess, ```chessboard and ```pgn fence becomes a
 * `<figure>`; other fences keep their rule. Use with `md.use(markdownItStaunton, options)`,
 * VitePress's `markdown.config` or Eleventy's `amendLibrary("md", …)`.
 *
 * A bad fence throws an Error whose message is `FILE:LINE: sentence` (FILE from
 * `env.relativePath`, `env.path` or `env.page.inputPath`), with `file`, `line`,
 * `sentence` and `param` properties.
 */
export default function markdownItStaunton(md: MarkdownItLike, options?: Options): void;
