// The package's entry for Node and Deno: ready on import. Reads dist/staunton.wasm
// synchronously beside this file, compiles it and inflates its constants once; the functions are core.js's.
import { readFileSync } from "node:fs";
import { inflateSync } from "node:zlib";
import { api, engine, loaded, packedData } from "./core.js";

const module = new WebAssembly.Module(readFileSync(new URL("../dist/staunton.wasm", import.meta.url)));
const packed = packedData(module);
const data = packed && { segments: packed.segments, bytes: inflateSync(packed.deflated) };
const running = engine(() => loaded(new WebAssembly.Instance(module, {}), data));
const functions = api(() => running);

/** Nothing to wait for here (the module is ready on import): for code written for web.js. */
export async function init() {}

export const { png, svg, pdf, webp, gif, text, describe, gameGif, gamePng, fence, version } = functions;
