// A trap in the module (here provoked by handing its `call` export a length past the end of
// memory: no input of the API is known to trap it) leaves an Error saying the render
// failed, and the next call runs in a fresh instance.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { inflateSync } from "node:zlib";
import { api, engine, loaded, packedData } from "../lib/core.js";
import * as staunton from "../lib/node.js";
import { fnv1a } from "./helpers.mjs";

const module = new WebAssembly.Module(readFileSync(new URL("../dist/staunton.wasm", import.meta.url)));
const packed = packedData(module);
const data = { segments: packed.segments, bytes: inflateSync(packed.deflated) };
const fresh = () => loaded(new WebAssembly.Instance(module, {}), data);

/** An instance whose `call` reads far past the end of memory: a real out-of-bounds trap. */
function trapping() {
  const instance = fresh();
  const exports = { ...instance.exports, call: (op, ptr) => instance.exports.call(op, ptr, 0x7fff0000) };
  return { exports };
}

test("after a trap the glue throws, starts the module again, and the next call works", () => {
  let made = 0;
  const running = engine(() => {
    made += 1;
    return fresh();
  }, trapping());
  const functions = api(() => running);
  assert.throws(() => functions.png("start"), {
    message: /^the render failed: the WebAssembly module stopped \(.*\); it was started again for the next call$/,
  });
  assert.equal(made, 1);
  assert.equal(fnv1a(functions.png("start")), fnv1a(staunton.png("start")));
  assert.equal(made, 1);
});

test("the packed constants are needed: without them the module cannot render", () => {
  const bare = engine(() => new WebAssembly.Instance(module, {}));
  assert.throws(() => api(() => bare).png("start"));
});
