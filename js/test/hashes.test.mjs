// Every format of every render case (tests/fixtures/render-cases.txt) gives the bytes the
// native release build recorded (render-hashes.txt), but for the encodings listed in
// DIFFERENT, which differ for a known reason and are checked otherwise.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as staunton from "../lib/node.js";
import { DIFFERENT, FUNCTIONS, cases, fnv1a, hashes } from "./helpers.mjs";

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
