// The markdown-it plugin (staunton/markdown-it) on the same grammar document as the remark
// plugin: figures for diagram fences, every other fence left to the rule that was there.

import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import MarkdownIt from "markdown-it";
import markdownItStaunton from "../markdown-it.js";
import { GRAMMAR_DIAGRAMS, figures, grammar, markdownIt, remark, scratch, svgs } from "./plugins-helpers.mjs";

test("every diagram fence of the grammar becomes a figure with inline SVG", () => {
  const html = markdownIt(grammar);
  const found = figures(html);
  assert.equal(found.length, GRAMMAR_DIAGRAMS);
  for (const figure of found) {
    assert.match(figure, /^<figure class="staunton-diagram"><svg role="img" aria-label="[^"]+"/);
  }
  assert.match(html, /<figcaption>Info-string options &amp; a quote<\/figcaption>/);
  assert.match(html, /<figcaption>Body-line caption<\/figcaption>/);
  assert.match(html, /<figcaption>The Ruy Lopez<\/figcaption>/);
  assert.match(html, /aria-label="An opening with two arrows"[^>]* width="180" height="180"/);
  assert.match(html, /aria-label="A quoted diagram"/);
  assert.match(html, /<li>\s*<p>In a list:<\/p>\s*<figure/);
  assert.match(html, /<blockquote>\s*<p>In a quote:<\/p>\s*<figure/);
  assert.match(html, /<pre><code class="language-js">console.log\(&quot;fen&quot;\);\n<\/code><\/pre>/);
  assert.match(html, /<pre><code>```fen\nan indented code block is not a fence\n```\n<\/code><\/pre>/);
  assert.doesNotMatch(html, /language-(fen|chess|pgn)/i);
});

test("the same SVGs as the remark plugin, fence for fence", async () => {
  const fromRemark = svgs(await remark(grammar)).map((s) => /aria-label="([^"]*)"[^>]*width="(\d+)"/.exec(s).slice(1));
  const fromMarkdownIt = svgs(markdownIt(grammar)).map((s) => /aria-label="([^"]*)"[^>]*width="(\d+)"/.exec(s).slice(1));
  assert.deepEqual(fromMarkdownIt, fromRemark);
});

test("other fences keep the rule that was there (a highlighter's, here)", () => {
  const md = new MarkdownIt({ highlight: (code, lang) => `<pre class="hl-${lang}">${code}</pre>` });
  md.use(markdownItStaunton);
  const html = md.render("```js\nlet x\n```\n\n```fen\nstart\n```\n\n```text fen\nplain\n```\n");
  assert.match(html, /^<pre class="hl-js">let x\n<\/pre>/);
  assert.match(html, /<figure class="staunton-diagram"><svg /);
  assert.match(html, /<pre class="hl-text">plain\n<\/pre>/);
});

test("a bad fence throws naming the file and the line the fault stands on", () => {
  const document = "# Notes\n\n> quoted\n>\n> ```fen\n> size: 9000\n> ```\n";
  assert.throws(
    () => markdownIt(document, {}, { relativePath: "guide/notes.md", path: "/site/guide/notes.md" }),
    (error) => {
      // The fence opens on line 5; `size: 9000` stands on line 6.
      assert.equal(error.message, 'guide/notes.md:6: size "9000" is not allowed: expected a whole number of pixels from 16 to 2048');
      assert.equal(error.line, 6);
      assert.equal(error.file, "guide/notes.md");
      assert.equal(error.sentence, 'size "9000" is not allowed: expected a whole number of pixels from 16 to 2048');
      return true;
    },
  );
  // Eleventy's env names the page; without any name the line alone.
  assert.throws(() => markdownIt("```fen\nsize: 1\n```\n", {}, { page: { inputPath: "./posts/a.md" } }), /^Error: \.\/posts\/a\.md:2: size "1"/);
  assert.throws(() => markdownIt("\n```fen\nsize: 1\n```\n"), /^Error: line 3: size "1"/);
  // A fence never closed is told at its opening line, in the command line's words.
  assert.throws(
    () => markdownIt("# T\n\n~~~~chess\nstart\nsize: 300\n\nSome words after it.\n", {}, { relativePath: "open.md" }),
    /^Error: open\.md:3: the ~~~~ fence opened at line 3 is never closed \(end it with a line of ~~~~\), so all that follows it was read as its body: /,
  );
});

test("the line counts the front matter a tool cut off (VitePress, Eleventy)", () => {
  const dir = scratch();
  const path = join(dir, "page.md");
  const body = "# Page\n\n```fen\norientaton: black\n```\n";
  writeFileSync(path, `---\ntitle: Page\nlayout: doc\n---\n${body}`);
  assert.throws(() => markdownIt(body, {}, { path, relativePath: "page.md" }), /^Error: page\.md:8: "orientaton" is not a fence option: did you mean orientation\?/);
});

test("files, url and data modes give <img> elements with alt text and size", () => {
  const dir = scratch();
  const html = markdownIt(grammar, { mode: "files", dir, link: "diagrams" });
  const images = html.match(/<img [^>]*>/g);
  assert.equal(images.length, GRAMMAR_DIAGRAMS);
  assert.equal(readdirSync(dir).length, GRAMMAR_DIAGRAMS);
  for (const img of images) assert.match(img, /^<img src="diagrams\/[0-9a-z]{13}\.svg" alt="[^"]+" width="\d+" height="\d+">$/);
  const url = markdownIt("```fen\nstart\n```\n", { mode: "url", url: "http://localhost:8080", format: "png" });
  assert.match(url, /^<figure class="staunton-diagram"><img src="http:\/\/localhost:8080\/diagram\?[^"]*" alt="White: King e1/);
  const data = markdownIt("```fen\nstart\n```\n", { mode: "data", format: "png", className: "board" });
  assert.match(data, /^<figure class="board"><img src="data:image\/png;base64,iVBORw0KGgo[^"]+" alt="White/);
});

test("the per-document limits: diagrams counted per render, not per process", () => {
  const md = new MarkdownIt().use(markdownItStaunton, { maxDiagrams: 2 });
  const two = "```fen\nstart\n```\n\n```fen\n8/8/8/8/8/8/8/K6k w - - 0 1\n```\n";
  assert.equal(figures(md.render(two)).length, 2);
  assert.equal(figures(md.render(two)).length, 2);
  assert.throws(() => md.render(`${two}\n\`\`\`pgn\n1. e4\n\`\`\`\n`), /^Error: line 9: a document may hold at most 2 diagrams/);
  const many = "```fen\nstart\n```\n\n".repeat(5_000);
  assert.throws(() => markdownIt(many), /^Error: line 4001: a document may hold at most 1000 diagrams/);
});

test("files mode removes the images a page no longer links, and only those", () => {
  const root = scratch();
  const dir = join(root, "public", "diagrams");
  const page = (name, body) => {
    const path = join(root, name);
    writeFileSync(path, body);
    return { path, html: markdownIt(body, { mode: "files", dir, link: "/diagrams" }, { path }) };
  };
  const names = (html) => [...html.matchAll(/src="\/diagrams\/([0-9a-z]{13}\.svg)"/g)].map((m) => m[1]);
  const fence = (fen) => "```fen\n" + fen + "\n```\n";
  const kings = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
  const rooks = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1";
  const a = page("a.md", fence("start") + fence(kings));
  const b = page("b.md", fence(kings) + fence(rooks));
  const [start, kingsFile] = names(a.html);
  const [, rooksFile] = names(b.html);
  const unrelated = join(dir, "notes.txt");
  writeFileSync(unrelated, "the site's own file");
  assert.deepEqual(readdirSync(dir).sort(), [start, kingsFile, rooksFile, "notes.txt"].sort());
  // a.md changed: its start diagram goes; the kings stay, b.md links them too.
  page("a.md", fence(kings));
  assert.deepEqual(readdirSync(dir).sort(), [kingsFile, rooksFile, "notes.txt"].sort());
  // b.md deleted: the next page built takes its images with it, but those a.md links.
  unlinkSync(b.path);
  page("a.md", fence(kings));
  assert.deepEqual(readdirSync(dir).sort(), [kingsFile, "notes.txt"].sort());
  // A document with no file (a string) links its images and removes nothing.
  markdownIt(fence("start"), { mode: "files", dir, link: "/diagrams" }, { path: join(root, "nowhere.md") });
  assert.equal(readdirSync(dir).length, 3);
  assert.ok(existsSync(unrelated));
});
