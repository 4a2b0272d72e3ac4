// The package's API over a compiled WebAssembly module, shared by the Node entry (node.js)
// and the browser entry (web.js). Owns the call protocol with src/lib.rs (arguments and
// answers as lists of length-prefixed fields), the options (names, spellings and JS types
// turned into the service's query pairs), the errors, and starting the module again when
// it traps.

const RENDER = 1;
const GAME = 2;
const DESCRIBE = 3;
const FENCE = 4;
const PARAMETERS = 5;
const VERSION = 6;
const SUGGESTION = 7;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** An Error with the parameter at fault, as the package throws them. */
function failure(message, param, Kind = Error) {
  const error = new Kind(message);
  if (param) error.param = param;
  return error;
}

/** `fields` (strings or bytes) as one buffer: each a u32 little-endian length, then itself. */
function encode(fields) {
  const parts = fields.map((f) => (typeof f === "string" ? encoder.encode(f) : f));
  const total = parts.reduce((n, p) => n + 4 + p.length, 0);
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  let at = 0;
  for (const part of parts) {
    view.setUint32(at, part.length, true);
    out.set(part, at + 4);
    at += 4 + part.length;
  }
  return out;
}

/** The fields of an answer, each a copy out of the module's memory. */
function decode(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const fields = [];
  for (let at = 0; at < bytes.length; ) {
    const len = view.getUint32(at, true);
    fields.push(bytes.slice(at + 4, at + 4 + len));
    at += 4 + len;
  }
  return fields;
}

/**
 * The constants `npm run build` moved out of the module's data segments
 * (scripts/pack.mjs): `{ segments: [{ address, length }], deflated }`, or null for a module
 * built without that step.
 */
export function packedData(module) {
  const [section] = WebAssembly.Module.customSections(module, "staunton.data");
  if (!section) return null;
  const view = new DataView(section);
  const count = view.getUint32(0, true);
  const segments = [];
  for (let i = 0; i < count; i++) {
    segments.push({ address: view.getUint32(4 + 8 * i, true), length: view.getUint32(8 + 8 * i, true) });
  }
  return { segments, deflated: new Uint8Array(section, 4 + 8 * count) };
}

/** `instance` with the constants (`segments`, and `bytes`: their inflated bytes, one after
 * another) written where the module's data segments would have put them. */
export function loaded(instance, data) {
  if (!data) return instance;
  const memory = new Uint8Array(instance.exports.memory.buffer);
  let at = 0;
  for (const { address, length } of data.segments) {
    memory.set(data.bytes.subarray(at, at + length), address);
    at += length;
  }
  return instance;
}

/**
 * The module's instance and the one call into it. `instantiate()` makes a fresh instance
 * (synchronously); a trap throws away the instance it happened in and makes another, so
 * one failed render never breaks the next.
 */
export function engine(instantiate, first) {
  let instance = first ?? instantiate();
  const call = (op, fields) => {
    const input = encode(fields);
    const { alloc, call: run, out_ptr, out_len, memory } = instance.exports;
    let status;
    let answer;
    try {
      const ptr = alloc(input.length);
      new Uint8Array(memory.buffer, ptr, input.length).set(input);
      status = run(op, ptr, input.length);
      answer = decode(new Uint8Array(memory.buffer, out_ptr(), out_len()));
    } catch (error) {
      if (!(error instanceof WebAssembly.RuntimeError)) throw error;
      instance = instantiate();
      throw failure(
        `the render failed: the WebAssembly module stopped (${error.message}); it was started again for the next call`,
      );
    }
    if (status === 0) return answer;
    const text = answer.map((f) => decoder.decode(f));
    if (status === 1) {
      const error = failure(text[1], text[0]);
      if (text[3]) error.suggestion = text[3];
      // A fence's error: the line of its body it stands on (0: the opening line).
      if (op === FENCE) error.line = Number(text[2] ?? 0);
      throw error;
    }
    throw failure(`the render failed: ${text[0]}`);
  };
  return { call, exports: () => instance.exports };
}

/** The crate's parameter table: spelling (lower case, `_` and `-` dropped) → name and
 * kind, and the separator of each parameter that takes a list. */
function table(call) {
  const fields = call(PARAMETERS, []).map((f) => decoder.decode(f));
  const names = new Map();
  const lists = new Map();
  for (let i = 0; i + 3 < fields.length; i += 4) {
    const [name, kind, spellings, separator] = fields.slice(i, i + 4);
    for (const s of [name, ...spellings.split(",")]) names.set(squash(s), { name, kind });
    if (separator) lists.set(name, separator);
  }
  return { names, lists };
}

function squash(name) {
  return name.toLowerCase().replace(/[_-]/g, "");
}

function describeType(value) {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  const type = typeof value;
  return type === "object" || type === "undefined" ? `an ${type}` : `a ${type}`;
}

/** The query value of option `key` (parameter `name`, whose list items are joined by
 * `separator` when it takes a list) given as `value`. */
function queryValue(key, name, separator, value) {
  if (typeof value === "string") return value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value === "boolean") return name === "check" ? "auto" : value ? "1" : "0";
  if (Array.isArray(value) && separator && value.every((v) => typeof v === "string")) {
    return value.join(separator);
  }
  const wanted = separator
    ? "a string or an array of strings"
    : "a string, a number or a boolean";
  throw failure(`option ${key} takes ${wanted}, not ${describeType(value)}`, name, TypeError);
}

/** The FEN of a position argument: a string, or an object with a `fen()` method (chess.js). */
function fenOf(position) {
  if (position === undefined || position === null || typeof position === "string") return position;
  if (typeof position.fen === "function") {
    const fen = position.fen();
    if (typeof fen === "string") return fen;
  }
  throw failure(
    `position must be a FEN string or an object with a fen() method, not ${describeType(position)}`,
    "fen",
    TypeError,
  );
}

/** The query pairs of a call: the position, then each option under its canonical name. */
function toPairs(params, suggest, fn, position, options, game) {
  if (options !== undefined && (typeof options !== "object" || options === null || Array.isArray(options))) {
    throw failure(`${fn}() takes its options as one object, not ${describeType(options)}`, null, TypeError);
  }
  const fen = fenOf(position);
  const pairs = fen === undefined || fen === null ? [] : ["fen", fen];
  for (const [key, value] of Object.entries(options ?? {})) {
    const found = params.names.get(squash(key));
    if (!found || found.name === "format" || (found.kind === "game" && !game)) {
      // The nearest parameter is the crate's choice, as the service's warning makes it.
      const near = found ? null : suggest(key, game);
      const hint = found?.name === "format"
        ? ": the function names the format"
        : found
          ? `: it is an option of gameGif() and gamePng()`
          : near
            ? ` (did you mean ${near}?)`
            : "";
      const error = failure(`${fn}() has no option ${key}${hint}`, key, TypeError);
      if (near) error.suggestion = near;
      throw error;
    }
    const { name } = found;
    if (name === "fen" && pairs.length) {
      throw failure(`${fn}() got the position twice: as its first argument and as option ${key}`, "fen", TypeError);
    }
    if (game && (name === "ply" || name === "move")) {
      throw failure(`${fn}() shows every ply: choose an excerpt with from and to, not ${key}`, name, TypeError);
    }
    if (value === undefined || value === null || (name === "check" && value === false)) continue;
    pairs.push(name, queryValue(key, name, params.lists.get(name), value));
  }
  return pairs;
}

/** The API functions over `current()`, which returns the engine or throws. */
export function api(current) {
  let params = null;
  const call = (op, fields) => current().call(op, fields);
  const suggest = (name, game) => decoder.decode(call(SUGGESTION, [name, game ? "1" : "0"])[0]) || null;
  const pairsOf = (fn, position, options, game = false) => {
    params ??= table(call);
    return toPairs(params, suggest, fn, position, options, game);
  };
  const render = (format, fn) => (position, options) =>
    call(RENDER, [format, ...pairsOf(fn, position, options)])[0];
  const text = (bytes) => decoder.decode(bytes);
  const game = (kind, fn) => (pgn, options) => {
    if (pgn !== undefined && pgn !== null && typeof pgn !== "string") {
      if (typeof pgn.pgn !== "function") {
        throw failure(`${fn}() takes the game as PGN text or an object with a pgn() method, not ${describeType(pgn)}`, "pgn", TypeError);
      }
      pgn = pgn.pgn();
    }
    const given = typeof pgn === "string";
    const fields = [kind, given ? "1" : "0", given ? pgn : "", ...pairsOf(fn, undefined, options, true)];
    return call(GAME, fields)[0];
  };
  const svgRender = render("svg", "svg");
  const textRender = render("txt", "text");
  return {
    png: render("png", "png"),
    svg: (position, options) => text(svgRender(position, options)),
    pdf: render("pdf", "pdf"),
    webp: render("webp", "webp"),
    gif: render("gif", "gif"),
    text: (position, options) => text(textRender(position, options)),
    describe: (position, options) => text(call(DESCRIBE, pairsOf("describe", position, options))[0]),
    gameGif: game("gif", "gameGif"),
    gamePng: game("apng", "gamePng"),
    fence: (info, body, options) => fence(call, info, body, options),
    version: () => text(call(VERSION, [])[0]),
  };
}

/** `fence(info, body, { format, defaults })`: one Markdown fence read and rendered (`inline`: the SVG element a page holds). */
function fence(call, info, body, options = {}) {
  if (typeof info !== "string" || typeof body !== "string") {
    throw failure("fence() takes the info string and the body as strings", "fence", TypeError);
  }
  for (const key of Object.keys(options ?? {})) {
    if (key !== "format" && key !== "defaults") {
      throw failure(`fence() has no option ${key}: it takes format and defaults`, key, TypeError);
    }
  }
  const format = options?.format ?? "svg";
  if (format !== "svg" && format !== "png" && format !== "inline") {
    throw failure(`fence() option format is ${JSON.stringify(format)}: expected "svg", "png" or "inline"`, "format", TypeError);
  }
  const defaults = [];
  for (const [key, value] of Object.entries(options?.defaults ?? {})) {
    if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean") {
      throw failure(`fence() default ${key} must be a string, not ${describeType(value)}`, key, TypeError);
    }
    defaults.push(key, String(value));
  }
  const f = call(FENCE, [info, body, format, ...defaults]);
  const text = (i) => decoder.decode(f[i]);
  return {
    format: text(0),
    data: format === "png" ? f[1] : text(1),
    alt: text(2),
    caption: text(3) === "1" ? text(4) : null,
    width: Number(text(5)),
    height: Number(text(6)),
    fileName: text(7),
    query: text(8),
  };
}
