// The package's entry for Node and Deno: ready on import. Reads dist/staunton.wasm
// synchronously beside this file and compiles it once; the functions are core.js's.
import { readFileSync } from "node:fs";
import { api, engine } from "./core.js";

const module = new WebAssembly.Module(readFileSync(new URL("../dist/staunton.wasm", import.meta.url)));
const running = engine(() => new WebAssembly.Instance(module, {}));
const functions = api(() => running);

/** Nothing to wait for here (the module is ready on import): for code written for web.js. */
export async function init() {}

export const { png, svg, pdf, webp, gif, text, describe, gameGif, gamePng, fence, version } = functions;
