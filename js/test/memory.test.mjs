// A module's memory never shrinks, so what it grows to must be bounded whatever it is asked:
// the caches (32 MiB, js/src/lib.rs) and one render at the largest size allowed. Boards of
// ever new large sizes (each a new cache entry) leave it under a fixed bound.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { inflateSync } from "node:zlib";
import { api, engine, loaded, packedData } from "../lib/core.js";

const BOUND_MIB = 96;

test(`memory stays under ${BOUND_MIB} MiB over many large renders of new sizes`, () => {
  const module = new WebAssembly.Module(readFileSync(new URL("../dist/staunton.wasm", import.meta.url)));
  const packed = packedData(module);
  const data = { segments: packed.segments, bytes: inflateSync(packed.deflated) };
  const running = engine(() => loaded(new WebAssembly.Instance(module, {}), data));
  const staunton = api(() => running);
  const mib = () => running.exports().memory.buffer.byteLength / 2 ** 20;
  for (let i = 0; i < 8; i++) {
    staunton.png("start", { size: 2048 - 9 * i, arrows: ["Ge2e4", "Ba1h8"], check: "e1" });
    staunton.webp("start", { size: 1200 - 13 * i, theme: "blue" });
  }
  assert.ok(mib() > 20, `the renders used memory (${mib()} MiB)`);
  assert.ok(mib() <= BOUND_MIB, `${mib()} MiB`);
});
