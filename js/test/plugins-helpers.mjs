// Helpers of the Markdown plugins' tests (plugins*.test.mjs): the grammar document, the
// pipelines (unified/remark, markdown-it) and the crate's own `staunton markdown`.

import { readFileSync, mkdtempSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { unified } from "unified";
import remarkParse from "remark-parse";
import remarkRehype from "remark-rehype";
import rehypeStringify from "rehype-stringify";
import MarkdownIt from "markdown-it";
import remarkStaunton from "../remark.js";
import markdownItStaunton from "../markdown-it.js";

export const grammarPath = new URL("./plugins-grammar.md", import.meta.url).pathname;
export const grammar = readFileSync(grammarPath, "utf8");
/** The diagram fences in plugins-grammar.md. */
export const GRAMMAR_DIAGRAMS = 9;

/** The document through unified: remark-parse, the plugin, remark-rehype, rehype-stringify (no raw HTML allowed). */
export async function remark(value, options, path = "doc.md") {
  const file = await unified()
    .use(remarkParse)
    .use(remarkStaunton, options)
    .use(remarkRehype)
    .use(rehypeStringify)
    .process({ path, value });
  return String(file);
}

/** The document through markdown-it with the plugin. */
export function markdownIt(value, options, env = {}) {
  return new MarkdownIt({ html: false }).use(markdownItStaunton, options).render(value, env);
}

/** Each `<svg …>…</svg>` of some HTML, in order. */
export function svgs(html) {
  return html.match(/<svg[\s\S]*?<\/svg>/g) ?? [];
}

/** Each `<figure …>…</figure>` of some HTML, in order. */
export function figures(html) {
  return html.match(/<figure[\s\S]*?<\/figure>/g) ?? [];
}

/** A fresh folder under the system's temporary one. */
export function scratch() {
  return mkdtempSync(join(tmpdir(), "staunton-plugins-"));
}

/**
 * The crate's `staunton markdown ARGS` on `input` (STAUNTON_BIN), or null when no binary is
 * given (STAUNTON_REQUIRE_BIN=1 makes that a failure: CI passes one).
 */
export function crateMarkdown(args, input, cwd) {
  const bin = process.env.STAUNTON_BIN;
  if (!bin) {
    if (process.env.STAUNTON_REQUIRE_BIN === "1") throw new Error("STAUNTON_BIN is not set");
    return null;
  }
  const run = spawnSync(bin, ["markdown", ...args], { input, encoding: "utf8", cwd });
  if (run.status !== 0) throw new Error(`staunton markdown ${args.join(" ")}: ${run.stderr}`);
  return run.stdout;
}
