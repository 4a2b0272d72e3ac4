// A real static-site build: VitePress (pinned) builds test/site with staunton/markdown-it,
// and its HTML holds each diagram as an image file with alt text; a bad fence stops it.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { scratch } from "./plugins-helpers.mjs";

const js = fileURLToPath(new URL("..", import.meta.url));
const site = join(js, "test", "site");

/** `vitepress build test/site --outDir OUT`, with `env` added. */
function build(out, env = {}) {
  const vitepress = join(js, "node_modules", "vitepress", "bin", "vitepress.js");
  return spawnSync(process.execPath, [vitepress, "build", site, "--outDir", out], {
    cwd: js,
    encoding: "utf8",
    env: { ...process.env, ...env },
  });
}

test("VitePress builds the site with each diagram an image file with alt text", () => {
  rmSync(join(site, "public", "diagrams"), { recursive: true, force: true });
  const out = scratch();
  const run = build(out);
  assert.equal(run.status, 0, run.stderr + run.stdout);
  const pages = {
    "index.html": ["White: King e1, Queen d1, Rooks a1 and h1", "After 4. Qxf7#. White: King e1, Queen f7"],
    "guide/other.html": ["Two kings", "White: King e1, Queen d1"],
  };
  for (const [page, alts] of Object.entries(pages)) {
    const html = readFileSync(join(out, page), "utf8");
    const images = [...html.matchAll(/<figure class="staunton-diagram"><img src="\/diagrams\/([0-9a-z]{13}\.svg)" alt="([^"]+)" width="(\d+)" height="(\d+)">/g)];
    assert.equal(images.length, alts.length, page);
    images.forEach(([, name, alt, width], i) => {
      assert.ok(alt.startsWith(alts[i]), `${page}: ${alt}`);
      assert.ok(existsSync(join(out, "diagrams", name)), `${page}: ${name} is published`);
      assert.match(readFileSync(join(out, "diagrams", name), "utf8"), new RegExp(`^<svg [^>]*width="${width}"`));
    });
    assert.doesNotMatch(html, /language-(fen|chess|pgn)/i);
    assert.doesNotMatch(html, /\.wasm/, "no client-side rendering");
  }
  assert.match(readFileSync(join(out, "index.html"), "utf8"), /<figcaption>After 1\. e4<\/figcaption>/);
  assert.match(readFileSync(join(out, "index.html"), "utf8"), /language-js/);
  assert.match(readFileSync(join(out, "guide/other.html"), "utf8"), /width="200" height="200"/);
  const assets = readdirSync(join(out, "assets"), { recursive: true });
  assert.deepEqual(assets.filter((name) => name.endsWith(".wasm")), [], "nothing drawn in the browser");
});

test("VitePress stops at a bad fence, naming the page, the line and the sentence", () => {
  const run = build(scratch(), { STAUNTON_SITE_BAD: "1" });
  assert.notEqual(run.status, 0);
  assert.match(run.stderr + run.stdout, /bad\.md:9: size "9000" is not allowed: expected a whole number of pixels from 16 to 2048/);
});
