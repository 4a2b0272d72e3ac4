// The remark plugin (staunton/remark) through real unified tools: remark-parse, remark-rehype
// and rehype-stringify with no raw HTML allowed, and @mdx-js/mdx rendered with React.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { evaluate } from "@mdx-js/mdx";
import { unified } from "unified";
import remarkParse from "remark-parse";
import * as runtime from "react/jsx-runtime";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import remarkStaunton from "../remark.js";
import { GRAMMAR_DIAGRAMS, figures, grammar, remark, scratch, svgs } from "./plugins-helpers.mjs";

test("every diagram fence of the grammar becomes a figure with inline SVG", async () => {
  const html = await remark(grammar);
  const found = figures(html);
  assert.equal(found.length, GRAMMAR_DIAGRAMS);
  for (const figure of found) {
    assert.match(figure, /^<figure class="staunton-diagram"><svg role="img" aria-label="[^"]+"/);
    // Nothing a framework can break: no style sheet, no class, every id the diagram's own.
    const svg = figure.slice(figure.indexOf("<svg"), figure.lastIndexOf("</svg>"));
    assert.doesNotMatch(svg, /<style| class=|xlink:/, "no style sheet, class or xlink in the SVG");
    const ids = [...svg.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]);
    const prefix = ids[0]?.slice(0, 8);
    assert.match(prefix ?? "", /^s[0-9a-z]{6}-$/);
    assert.ok(ids.every((id) => id.startsWith(prefix)), "every id carries the diagram's prefix");
    assert.match(figure, /style="max-width:100%;height:auto"/);
  }
  assert.equal(svgs(html).length, GRAMMAR_DIAGRAMS);
  // Captions from the info string and from a body line, escaped once.
  assert.match(html, /<figcaption>Info-string options &#x26; a quote<\/figcaption>/);
  assert.match(html, /<figcaption>Body-line caption<\/figcaption>/);
  assert.match(html, /<figcaption>The Ruy Lopez<\/figcaption>/);
  assert.equal((html.match(/<figcaption>/g) ?? []).length, 3);
  // Alt text: the fence's own, or the position described (a game's says where it is).
  assert.match(html, /aria-label="An opening with two arrows"/);
  assert.match(html, /aria-label="A quoted diagram"/);
  assert.match(html, /aria-label="After 3\.\.\.a6\. White: King e1/);
  assert.match(html, /aria-label="After 2\. c4\./);
  // Body-line options win over the info string: size 180, not 300.
  assert.match(html, /aria-label="An opening with two arrows"[^>]* width="180" height="180"/);
  // In a list and in a quote.
  assert.match(html, /<li>\s*<p>In a list:<\/p>\s*<figure/);
  assert.match(html, /<blockquote>\s*<p>In a quote:<\/p>\s*<figure/);
  // Other code is left alone.
  assert.match(html, /<pre><code class="language-js">console.log\("fen"\);\n<\/code><\/pre>/);
  assert.match(html, /<pre><code>```fen\nan indented code block is not a fence\n```\n<\/code><\/pre>/);
  assert.doesNotMatch(html, /language-(fen|chess|pgn)/i);
});

test("a bad fence fails the file at the line the fault stands on, in the service's words", async () => {
  const document = "# Notes\n\nText.\n\n- item\n\n  ```fen\n  start\n  size: 9000\n  ```\n";
  await assert.rejects(remark(document, {}, "notes/bad.md"), (error) => {
    // The fence opens on line 7; its bad option stands on line 9.
    assert.equal(error.line, 9);
    assert.equal(error.column, 3);
    assert.equal(error.file, "notes/bad.md");
    assert.equal(String(error), 'notes/bad.md:9:3: size "9000" is not allowed: expected a whole number of pixels from 16 to 2048');
    assert.match(error.message, /^size "9000" is not allowed: expected a whole number of pixels from 16 to 2048$/);
    assert.equal(error.source, "staunton");
    return true;
  });
  await assert.rejects(remark("```fen\norientaton: black\n```\n", {}, "typo.md"), /did you mean orientation/);
  // A fence never closed is told at its opening line, in the command line's words.
  await assert.rejects(remark("# T\n\n```fen\nstart\nsize: 300\n\nSome words after it.\n", {}, "open.md"), (error) => {
    assert.equal(error.line, 3);
    assert.match(error.message, /^the ``` fence opened at line 3 is never closed \(end it with a line of ```\), so all that follows it was read as its body: /);
    return true;
  });
  // A fence cannot choose its format: the advice names the plugin's option, not a flag only.
  await assert.rejects(remark("```fen\nstart\nformat: png\n```\n", {}, "f.md"), /a Markdown plugin's format option/);
});

test("files mode writes each distinct image once and links it with the prefix", async () => {
  const dir = scratch();
  const html = await remark(grammar, { mode: "files", dir, link: "/img/" });
  const names = readdirSync(dir).sort();
  assert.equal(names.length, GRAMMAR_DIAGRAMS);
  const images = html.match(/<img [^>]*>/g);
  assert.equal(images.length, GRAMMAR_DIAGRAMS);
  for (const img of images) {
    const [, name] = /src="\/img\/([0-9a-z]{13}\.svg)"/.exec(img);
    assert.ok(names.includes(name), name);
    assert.match(img, /alt="[^"]+" width="\d+" height="\d+"/);
  }
  assert.match(html, /alt="An opening with two arrows" width="180" height="180"/);
  assert.match(readFileSync(join(dir, names[0]), "utf8"), /^<svg /);
  const png = scratch();
  const again = await remark("```fen size=64\nstart\n```\n", { mode: "files", dir: png, format: "png" });
  const [file] = readdirSync(png);
  assert.match(file, /^[0-9a-z]{13}\.png$/);
  assert.deepEqual([...readFileSync(join(png, file)).subarray(1, 4)], [0x50, 0x4e, 0x47]);
  assert.match(again, new RegExp(`<img src="${png.replaceAll("/", "\\/")}\\/${file}" alt="White: King e1[^"]*" width="64" height="64">`));
});

test("url and data modes make an <img> for the service's URL or a data: URL", async () => {
  const html = await remark("```fen size=200\nstart\narrows: e2->e4\n```\n", {
    mode: "url",
    url: "https://diagrams.example.org/",
  });
  assert.match(html, /<img src="https:\/\/diagrams\.example\.org\/diagram\.svg\?[^"]+" alt="White: King e1/);
  const png = await remark("```fen\nstart\n```\n", { mode: "url", url: "https://d.example", format: "png" });
  assert.match(png, /src="https:\/\/d\.example\/diagram\?/);
  const data = await remark("```fen size=100\nstart\n```\n", { mode: "data" });
  const [, base64] = /src="data:image\/svg\+xml;base64,([^"]+)"/.exec(data);
  assert.match(Buffer.from(base64, "base64").toString("utf8"), /^<svg [^>]*width="100"/);
});

test("options are checked, naming the one at fault", async () => {
  const wrong = [
    [{ mode: "html" }, /option mode: expected one of inline, data, files, url/],
    [{ mode: "files" }, /option dir: mode "files" needs the folder/],
    [{ mode: "url" }, /option url:/],
    [{ format: "png" }, /option format: inline diagrams are SVG/],
    [{ format: "gif", mode: "data" }, /option format: expected "svg" or "png"/],
    [{ maxDiagrams: 0 }, /option maxDiagrams: expected a whole number/],
    [{ sise: 3 }, /option sise: unknown/],
    [{ defaults: { orientaton: "black" } }, /option defaults: "orientaton" is not a fence option: did you mean orientation\?/],
    [{ defaults: { size: 9000 } }, /option defaults: size "9000" is not allowed/],
  ];
  for (const [options, message] of wrong) {
    await assert.rejects(remark("```fen\nstart\n```\n", options), message);
  }
  // Defaults reach every fence (in the query's string form or as JS values); a fence's own win.
  const html = await remark("```fen\nstart\n```\n\n```fen size=90\nstart\n```\n", {
    defaults: { size: 120, lang: "de", arrows: ["e2e4", "d2d4"] },
  });
  assert.deepEqual(
    svgs(html).map((s) => /width="(\d+)"/.exec(s)[1]),
    ["120", "90"],
  );
  assert.match(html, /aria-label="Weiß:/);
});

test("a hostile document is refused by the limits, not drawn without end", async () => {
  const many = "```fen\nstart\n```\n\n".repeat(5_000);
  await assert.rejects(remark(many, {}, "many.md"), /many\.md:4001:1.*at most 1000 diagrams/);
  await assert.rejects(remark("```fen\nstart\n```\n".repeat(4), { maxDiagrams: 3 }), /at most 3 diagrams/);
  await assert.rejects(remark("```fen size=2000\nstart\n```\n", { maxBytes: 1000 }), /at most 1000 bytes/);
  const huge = `\`\`\`pgn\n${"1. e4 e5 ".repeat(10_000)}\n\`\`\`\n`;
  await assert.rejects(remark(huge), /at most 65536 bytes|16 ?KB|PGN/i);
  // 2,000 nested quotes around a fence: walked without a deep recursion (the plugin only;
  // hast-util-to-html itself recurses too deep to write such a tree).
  const nested = `${"> ".repeat(2000)}\`\`\`fen\n${"> ".repeat(2000)}start\n`;
  const processor = unified().use(remarkParse).use(remarkStaunton);
  const tree = await processor.run(processor.parse(nested));
  let depth = 0;
  let node = tree;
  while (node.children?.length) [node, depth] = [node.children[0], depth + 1];
  assert.equal(node.type, "stauntonDiagram");
  assert.equal(depth, 2001);
});

test("MDX: a fence becomes the figure with its SVG, rendered by React", async () => {
  const document = `export const title = 'A game'\n\n# {title}\n\n<div>JSX</div>\n\n${grammar.replace(/^---[\s\S]*?---\n/, "").replace(/    ```fen\n.*\n    ```\n/, "")}`;
  const { default: Content } = await evaluate(document, {
    ...runtime,
    remarkPlugins: [[remarkStaunton, {}]],
  });
  const html = renderToStaticMarkup(createElement(Content));
  assert.equal(figures(html).length, GRAMMAR_DIAGRAMS);
  assert.match(html, /<figure class="staunton-diagram"><svg role="img" aria-label="An opening with two arrows"/);
  assert.doesNotMatch(html, /<style/, "no style sheet for a framework to rewrite or drop");
  assert.match(html, /<figcaption>Info-string options &amp; a quote<\/figcaption>/);
  assert.match(html, /<use href="#s[0-9a-z]{6}-/);
  assert.match(html, /style="max-width:100%;height:auto"/, "React keeps the root's style");
  assert.match(html, /fill="currentColor"/, "the labels take the page's text colour");
  assert.match(html, /fill-opacity="/, "SVG attributes keep their SVG names");
  await assert.rejects(
    evaluate({ path: "post.mdx", value: "# Post\n\n```fen\nsize: 9000\n```\n" }, { ...runtime, remarkPlugins: [remarkStaunton] }),
    // The fence opens on line 3; its bad option stands on line 4.
    /post\.mdx:4:1.*size "9000" is not allowed/,
  );
});
