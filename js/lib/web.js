// The package's entry for browsers and bundlers: `await init()` once, then the functions
// are core.js's. `init(input)` takes the module as a URL (or its string), a Response (or a
// promise of one), a BufferSource or a compiled WebAssembly.Module; by default the file
// dist/staunton.wasm beside this package's lib/ folder.
import { api, engine, loaded, packedData } from "./core.js";

let running = null;
let starting = null;

async function compile(input) {
  if (input instanceof WebAssembly.Module) return input;
  if (typeof input === "string" || input instanceof URL) input = fetch(input);
  input = await input;
  if (typeof Response !== "undefined" && input instanceof Response) {
    if (!input.ok) throw new Error(`staunton: the module could not be fetched (HTTP ${input.status})`);
    const streaming = input.headers.get("Content-Type") === "application/wasm";
    if (streaming && WebAssembly.compileStreaming) return WebAssembly.compileStreaming(input);
    return WebAssembly.compile(await input.arrayBuffer());
  }
  return WebAssembly.compile(input);
}

/** The packed constants inflated (DecompressionStream: browsers, Deno, Node ≥ 18). */
async function inflated(packed) {
  if (!packed) return null;
  const stream = new Blob([packed.deflated]).stream().pipeThrough(new DecompressionStream("deflate"));
  const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  return { segments: packed.segments, bytes };
}

/** Load the module (once: later calls return the first call's promise). */
export function init(input = new URL("../dist/staunton.wasm", import.meta.url)) {
  starting ??= (async () => {
    const module = await compile(input);
    const data = await inflated(packedData(module));
    const first = loaded(await WebAssembly.instantiate(module, {}), data);
    running = engine(() => loaded(new WebAssembly.Instance(module, {}), data), first);
  })().catch((error) => {
    starting = null;
    throw error;
  });
  return starting;
}

const functions = api(() => {
  if (running === null) {
    throw new Error("staunton is not ready: await init() once before calling its functions");
  }
  return running;
});

export const { png, svg, pdf, webp, gif, text, describe, gameGif, gamePng, fence, version } = functions;
