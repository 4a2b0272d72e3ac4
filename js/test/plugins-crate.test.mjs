// The plugins against the crate's own `staunton markdown` (STAUNTON_BIN) on the grammar
// document: the same SVG for each fence, the same file names and bytes, the same URLs.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { unified } from "unified";
import rehypeParse from "rehype-parse";
import { crateMarkdown, grammar, grammarPath, markdownIt, remark, scratch, svgs } from "./plugins-helpers.mjs";

// Skipped without a binary, unless STAUNTON_REQUIRE_BIN=1 (CI) makes that a failure.
const skip = process.env.STAUNTON_BIN || process.env.STAUNTON_REQUIRE_BIN === "1" ? false : "STAUNTON_BIN is not set";

/** An HTML fragment read as a hast tree without positions, to compare two serialisations. */
function tree(html) {
  const strip = (node) => {
    delete node.position;
    node.children?.forEach(strip);
    return node;
  };
  return strip(unified().use(rehypeParse, { fragment: true }).parse(html));
}

test("inline: markdown-it gives the crate's SVG bytes, remark the same tree", { skip }, async () => {
  const crate = svgs(crateMarkdown([], grammar));
  assert.equal(crate.length, 9);
  assert.deepEqual(svgs(markdownIt(grammar)), crate);
  const fromRemark = svgs(await remark(grammar));
  assert.equal(fromRemark.length, crate.length);
  fromRemark.forEach((svg, i) => assert.deepEqual(tree(svg), tree(crate[i]), `diagram ${i + 1}`));
});

for (const format of ["svg", "png"]) {
  test(`files (${format}): the crate's file names, bytes and alt texts`, { skip }, async () => {
    const crateDir = scratch();
    const out = crateMarkdown(["--images", join(crateDir, "img"), "--format", format, "--link", "img"], grammar);
    const plugin = scratch();
    const html = markdownIt(grammar, { mode: "files", dir: plugin, link: "img", format });
    const names = readdirSync(plugin).sort();
    assert.deepEqual(names, readdirSync(join(crateDir, "img")).sort());
    for (const name of names) {
      assert.ok(readFileSync(join(plugin, name)).equals(readFileSync(join(crateDir, "img", name))), name);
    }
    // The crate writes <img src alt width height>: the same images in order, the same size.
    const images = (text) =>
      [...text.matchAll(/<img src="([^"]+)" alt="([^"]*)" width="(\d+)" height="(\d+)"/g)].map((m) => [
        m[1],
        m[2].replaceAll("&amp;", "&"),
        m[3],
        m[4],
      ]);
    const crateImages = images(out);
    const pluginImages = images(html);
    assert.ok(crateImages.length > 0, out);
    assert.deepEqual(pluginImages, crateImages);
    // And remark's files mode links the same names.
    const remarkHtml = await remark(grammar, { mode: "files", dir: scratch(), link: "img", format });
    assert.deepEqual([...remarkHtml.matchAll(/src="([^"]+)"/g)].map((m) => m[1]), pluginImages.map(([src]) => src));
  });
}

test("url: the crate's service URLs", { skip }, () => {
  const base = "https://diagrams.example.org";
  const crate = [...crateMarkdown(["--url", base], grammar).matchAll(/<img src="([^"]+)"/g)].map((m) => m[1]);
  const plugin = [...markdownIt(grammar, { mode: "url", url: base }).matchAll(/<img src="([^"]+)"/g)].map((m) => m[1]);
  assert.equal(crate.length, 9);
  assert.deepEqual(plugin, crate);
});

test("a bad fence: the crate's sentence and line", { skip }, () => {
  const document = readFileSync(grammarPath, "utf8").replace("lastMove: e2 e4", "lastMove: e2 e9");
  let crate;
  try {
    crateMarkdown([], document);
  } catch (error) {
    crate = /<stdin>:(\d+): (.*)/.exec(error.message);
  }
  assert.ok(crate, "the crate refuses the document");
  assert.throws(() => markdownIt(document, {}, { relativePath: "grammar.md" }), { message: `grammar.md:${crate[1]}: ${crate[2]}` });
});
