// Writes, for each render case whose WebP differs in bytes from the native build's
// (DIFFERENT in helpers.mjs), the module's WebP as OUT/NAME.webp and the case's query as
// OUT/NAME.query, so scripts/ci/js-test.sh can have the service make the native file and
// compare the two files' pixels.
//
//   node test/different-webp.mjs OUT
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import * as staunton from "../lib/node.js";
import { DIFFERENT, cases } from "./helpers.mjs";

const out = process.argv[2];
if (!out) throw new Error("usage: node test/different-webp.mjs OUT");
const queries = new Map(cases().map(({ name, options }) => [name, options]));
for (const key of DIFFERENT.keys()) {
  const [name, ext] = key.split(" ");
  if (ext !== "webp") throw new Error(`${key}: only WebP files are compared by pixels`);
  const options = queries.get(name);
  if (!options) throw new Error(`${key}: no such render case`);
  writeFileSync(join(out, `${name}.webp`), staunton.webp(undefined, options));
  writeFileSync(join(out, `${name}.query`), new URLSearchParams(options).toString());
}
