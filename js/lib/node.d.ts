// The Node and Deno entry: ready on import.
export * from "./api.js";
/** Resolves at once (the module is ready on import): for code written for the browser entry. */
export function init(input?: unknown): Promise<void>;
