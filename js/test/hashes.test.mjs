// Every format of every render case (tests/fixtures/render-cases.txt) gives the bytes the
// native release build recorded (render-hashes.txt), but for the encodings listed in
// DIFFERENT, which differ for a known reason and are checked otherwise.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as staunton from "../lib/node.js";
import { FUNCTIONS, cases, fnv1a, hashes } from "./helpers.mjs";

/**
 * WebP files that encode the same pixels in other bytes on wasm32. image-webp limits its
 * Huffman codes to 15 bits by sorting symbols by frequency with an unstable sort: symbols
 * of equal frequency may come out in another order when the sorted tuple's size differs
 * (usize is 4 bytes on wasm32, 8 on x86_64), so they get other, equally long codes. The
 * files have the same length (the number here, the native file's) and decode to the same
 * pixels (docs/src/javascript.md says how that was checked).
 */
const DIFFERENT = new Map([
  ["theme-print webp", 45422],
  ["theme-print-black webp", 54790],
]);

/** Formats the service refuses for a case (the recording renders every format). */
const REFUSED = new Map([["page-transparent", ["webp", "gif"]]]);

const recorded = hashes();

for (const { name, options } of cases()) {
  test(`render case ${name}: every format as recorded`, () => {
    for (const [ext, fn] of Object.entries(FUNCTIONS)) {
      const key = `${name} ${ext}`;
      if (REFUSED.get(name)?.includes(ext)) {
        assert.throws(() => staunton[fn](undefined, options), { param: "background" });
        continue;
      }
      const out = staunton[fn](undefined, options);
      if (DIFFERENT.has(key)) {
        assert.notEqual(fnv1a(out), recorded.get(key), `${key} now matches: take it off DIFFERENT`);
        assert.equal(new TextDecoder().decode(out.subarray(8, 12)), "WEBP");
        assert.equal(out.length, DIFFERENT.get(key), `${key}: the native file's length`);
        continue;
      }
      assert.equal(fnv1a(out), recorded.get(key), key);
    }
  });
}
