// Types of staunton/remark: the remark plugin that draws diagram fences at build time.
import type { Options } from "./figure.js";

export type { Mode, Options } from "./figure.js";

/**
 * remark plugin: each ```fen, ```chess, ```chessboard and ```pgn fence becomes a
 * `<figure>` (hast elements, no raw HTML). Use with `unified().use(remarkStaunton, options)`
 * or in MDX's, Docusaurus's, Astro's or Gatsby's `remarkPlugins`.
 */
export default function remarkStaunton(
  options?: Options,
): (tree: object, file: { fail(reason: string, place?: unknown, origin?: string): never }) => void;
