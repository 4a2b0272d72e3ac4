// The shared glue (used by node.js and web.js; not an entry of the package).
import type * as API from "./api.js";

/** The module's instance and the one call into it; a trap makes a fresh instance. */
export interface Engine {
  call(op: number, fields: (string | Uint8Array)[]): Uint8Array[];
  exports(): WebAssembly.Exports;
}
export function engine(
  instantiate: () => WebAssembly.Instance,
  first?: WebAssembly.Instance,
): Engine;
/** The API functions over current(), which returns the engine or throws. */
export function api(current: () => Engine): typeof API;
