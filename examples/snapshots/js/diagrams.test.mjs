// Snapshot tests of chess diagrams from JavaScript: node's own test runner fetches each
// diagram from a running Staunton service and compares its pixels (pngjs, pixelmatch) with
// the committed picture in ../expected/, or compares the text board as text.
//
//   STAUNTON_URL=http://127.0.0.1:8080 npm test        (in examples/snapshots/js, after npm ci)
//
// On a mismatch the test fails naming the number of differing pixels and writes the actual
// image and a diff image next to the expected one. STAUNTON_UPDATE_SNAPSHOTS=1 writes the
// expected pictures instead.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { PNG } from "pngjs";
import pixelmatch from "pixelmatch";

const base = (process.env.STAUNTON_URL || "http://127.0.0.1:8080").replace(/\/+$/, "");
const expectedDir = join(dirname(fileURLToPath(import.meta.url)), "..", "expected");

async function fetchBytes(path) {
  const r = await fetch(base + path);
  if (r.status !== 200) assert.fail(`${path}: ${r.status} ${await r.text()}`);
  return Buffer.from(await r.arrayBuffer());
}

async function assertDiagram(name, query) {
  const actual = await fetchBytes("/diagram.png?" + query);
  const file = join(expectedDir, `${name}.png`);
  if (process.env.STAUNTON_UPDATE_SNAPSHOTS === "1") {
    writeFileSync(file, actual);
    return;
  }
  assert.ok(existsSync(file), `no snapshot ${file}: run with STAUNTON_UPDATE_SNAPSHOTS=1`);
  const a = PNG.sync.read(readFileSync(file));
  const b = PNG.sync.read(actual);
  assert.deepEqual([b.width, b.height], [a.width, a.height], `${name}: the size changed`);
  const diff = new PNG({ width: a.width, height: a.height });
  const differing = pixelmatch(a.data, b.data, diff.data, a.width, a.height, { threshold: 0.05 });
  if (differing > 0) {
    writeFileSync(join(expectedDir, `${name}.actual.png`), actual);
    writeFileSync(join(expectedDir, `${name}.diff.png`), PNG.sync.write(diff));
  }
  assert.equal(differing, 0, `${name}: ${differing} pixels differ; see ${name}.diff.png`);
}

test("the start position matches its snapshot", () => assertDiagram("start", "fen=start"));

test("Black's view of the Sicilian matches its snapshot", () =>
  assertDiagram("sicilian-black",
    "fen=rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R_b_KQkq_-_1_2&orientation=black"));

test("another position is caught", async () => {
  const a = PNG.sync.read(readFileSync(join(expectedDir, "start.png")));
  const b = PNG.sync.read(await fetchBytes("/diagram.png?fen=rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR_b"));
  const differing = pixelmatch(a.data, b.data, null, a.width, a.height, { threshold: 0.05 });
  assert.ok(differing > 100, `1.e4 should differ from the start, ${differing} pixels did`);
});

test("the text board reads as the position", async () => {
  const text = (await fetchBytes("/diagram?fen=start&format=txt")).toString("utf8");
  assert.match(text, /R N B Q K B N R/);
  assert.match(text, /r n b q k b n r/);
});
