// The markdown-it plugin (`staunton/markdown-it`): each diagram fence becomes a <figure>
// drawn at build time through the package's fence(); every other fence is left to the
// fence rule that was there. Works with markdown-it, VitePress and Eleventy.

import { readFileSync } from "node:fs";
import { Session, html, isDiagram, neverClosed, settings } from "./figure.js";

/**
 * markdown-it plugin: diagram fences (```fen, ```chess, ```chessboard, ```pgn) become
 * figures. A fence that cannot be drawn throws an Error naming the file (env.relativePath,
 * env.path or Eleventy's env.page.inputPath), the fence's line and the service's sentence.
 *
 * @param {import("markdown-it").default} md
 * @param {import("./markdown-it.js").Options} [options]
 */
export default function markdownItStaunton(md, options) {
  const config = settings(options ?? {});
  const unescape = md.utils.unescapeAll;
  // Every diagram of a document is drawn once it is parsed, so the per-document limits
  // count the whole document and an error stops the parse.
  md.core.ruler.push("staunton", (state) => {
    const session = new Session(config);
    for (const token of state.tokens) {
      if (token.type !== "fence") continue;
      const info = unescape(token.info).trim();
      if (!isDiagram(info)) continue;
      try {
        token.meta = { ...token.meta, staunton: html(session.figure(info, token.content), config.className) };
      } catch (error) {
        throw located(error, state, token);
      }
    }
    const env = state.env ?? {};
    session.finish(env.path ?? env.page?.inputPath);
  });
  const fallback = md.renderer.rules.fence;
  md.renderer.rules.fence = (tokens, idx, opts, env, self) => {
    const made = tokens[idx].meta?.staunton;
    if (made !== undefined) return `${made}\n`;
    return fallback ? fallback(tokens, idx, opts, env, self) : self.renderToken(tokens, idx, opts);
  };
}

/** An Error for a bad fence: `file:line: sentence`, with `file`, `line`, `param` and `cause`. */
function located(error, state, token) {
  const env = state.env ?? {};
  const file = env.relativePath ?? env.path ?? env.page?.inputPath;
  // The fence's first line, plus the body line fence() says the fault stands on; a fence
  // never closed (it runs to the end) is told at its opening, as the likely cause.
  const [first, end] = token.map ?? [0, 0];
  const opening = first + 1 + frontMatterLines(env, state.src);
  const lines = state.src.split("\n").slice(first, end);
  const never = token.map ? neverClosed(lines, opening, error.message) : null;
  const line = never ? opening : opening + (error.line ?? 0);
  const sentence = never ?? error.message;
  const where = file ? `${file}:${line}` : `line ${line}`;
  const located = new Error(`${where}: ${sentence}`, { cause: error });
  Object.assign(located, { file, line, param: error.param, sentence });
  return located;
}

/**
 * The lines a tool cut off the top of the file before markdown-it saw it (VitePress and
 * Eleventy hand over the text after the front matter): the file at env.path (or
 * env.page.inputPath) read, 0 unless it ends with the text markdown-it was given.
 */
function frontMatterLines(env, source) {
  const path = env.path ?? env.page?.inputPath;
  if (typeof path !== "string" || source === "") return 0;
  let text;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return 0;
  }
  if (!text.endsWith(source)) return 0;
  return text.slice(0, text.length - source.length).split("\n").length - 1;
}
