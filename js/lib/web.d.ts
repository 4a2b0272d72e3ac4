// The browser and bundler entry: await init() once before the first call.
export * from "./api.js";
/** Where the module comes from: by default dist/staunton.wasm beside the package's lib/. */
export type InitInput =
  | string
  | URL
  | Response
  | PromiseLike<Response>
  | BufferSource
  | WebAssembly.Module;
/** Load and compile the module, once (later calls return the first call's promise). */
export function init(input?: InitInput): Promise<void>;
