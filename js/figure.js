// What a diagram fence becomes in both Markdown plugins (remark.js, markdown-it.js): the
// plugin options read once, each fence rendered through the package's fence() (the
// crate's own grammar, in the wasm), and the figure built as an HTML string or as hast.
// It owns the per-document limits, the image files written (and removed when no page uses
// them any more) and the SVG read into hast.

import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync, existsSync, unlinkSync } from "node:fs";
import { join, resolve } from "node:path";
import { fence } from "./lib/node.js";

/** The info-string words that make a fence a diagram (the first word, any case). */
export const INFO_WORDS = ["fen", "chess", "chessboard", "pgn"];

const MODES = ["inline", "data", "files", "url"];
const OPTIONS = [
  "mode",
  "dir",
  "link",
  "format",
  "url",
  "defaults",
  "className",
  "maxDiagrams",
  "maxBytes",
];

/** Whether a fence's info string (its first word, without pandoc's `{.` and `}`) names a diagram. */
export function isDiagram(info) {
  const first = String(info ?? "").trim().split(/\s+/)[0] ?? "";
  const word = first.replace(/^\{?\.?/, "").replace(/\}$/, "");
  return INFO_WORDS.includes(word.toLowerCase());
}

/**
 * For a fence whose source lines (`lines`, its opening marker first) run to the end of the
 * document or of its list or quote without a closing marker, the sentence the command line
 * says of it: the fence opened at `line` is never closed, so all after it was its body,
 * then `sentence` (what its body's reading found); null for a closed fence.
 */
export function neverClosed(lines, line, sentence) {
  const open = /^[\s>]*(`{3,}|~{3,})/.exec(lines[0] ?? "");
  if (!open) return null;
  const marker = open[1];
  const last = lines.length > 1 ? lines[lines.length - 1].replace(/^[\s>]*/, "").trimEnd() : "";
  if (last.length >= marker.length && [...last].every((c) => c === marker[0])) return null;
  return `the ${marker} fence opened at line ${line} is never closed (end it with a line of ${marker}), so all that follows it was read as its body: ${sentence}`;
}

/** A plugin option that is wrong: an Error naming it. */
function bad(name, why) {
  const error = new Error(`staunton plugin option ${name}: ${why}`);
  error.param = name;
  return error;
}

/** The plugin options checked, with their defaults filled in. */
export function settings(options = {}) {
  if (options === null || typeof options !== "object") throw bad("options", "expected an object");
  for (const name of Object.keys(options)) {
    if (!OPTIONS.includes(name)) throw bad(name, `unknown; the options are ${OPTIONS.join(", ")}`);
  }
  const mode = options.mode ?? "inline";
  if (!MODES.includes(mode)) throw bad("mode", `expected one of ${MODES.join(", ")}, got ${JSON.stringify(mode)}`);
  const format = options.format ?? "svg";
  if (format !== "svg" && format !== "png") throw bad("format", `expected "svg" or "png", got ${JSON.stringify(format)}`);
  if (mode === "inline" && format !== "svg") throw bad("format", 'inline diagrams are SVG: use mode "files", "data" or "url" for PNG');
  if (mode === "files" && typeof options.dir !== "string") throw bad("dir", 'mode "files" needs the folder to write the images to');
  if (mode === "url" && typeof options.url !== "string") throw bad("url", 'mode "url" needs the service\'s base URL');
  const defaults = {};
  for (const [key, value] of Object.entries(options.defaults ?? {})) {
    defaults[key] = Array.isArray(value) ? value.join(",") : String(value);
  }
  // The defaults go to every fence: a misspelt name or a bad value among them is this
  // option's fault, said here, not at the line of the first fence (which has no such word).
  try {
    fence("fen", "start", { format: "svg", defaults });
  } catch (error) {
    throw bad("defaults", error.message);
  }
  const count = (name, fallback) => {
    const value = options[name] ?? fallback;
    if (!Number.isInteger(value) || value < 1) throw bad(name, "expected a whole number above 0");
    return value;
  };
  return {
    mode,
    format,
    dir: options.dir,
    link: options.link ?? options.dir,
    url: options.url,
    defaults,
    className: options.className ?? "staunton-diagram",
    maxDiagrams: count("maxDiagrams", 1000),
    maxBytes: count("maxBytes", 64 * 1024 * 1024),
  };
}

/**
 * One document's diagrams: renders each fence once (a fence repeated in the document is
 * rendered once), counts them and their bytes against the limits.
 */
export class Session {
  constructor(config) {
    this.config = config;
    this.diagrams = 0;
    this.bytes = 0;
    this.made = new Map();
    /** Files mode: the names of the image files this document links. */
    this.files = new Set();
  }

  /**
   * The document `page` (its file's path) was drawn whole: in files mode, its images are
   * recorded, and those it linked last time and no page links now are removed from `dir`.
   * A document with no file on disk (a string given a name) is not recorded.
   */
  finish(page) {
    if (this.config.mode !== "files" || typeof page !== "string" || !existsSync(page)) return;
    prune(this.config, resolve(page), this.files);
  }

  /** The figure of one fence: `{ image, alt, caption, width, height }`; throws the service's sentence. */
  figure(info, body) {
    const { config } = this;
    this.diagrams += 1;
    if (this.diagrams > config.maxDiagrams) {
      throw limit(`a document may hold at most ${config.maxDiagrams} diagrams (the plugin's maxDiagrams)`);
    }
    const key = `${info}\n${body}`;
    let made = this.made.get(key);
    if (made === undefined) {
      const format = config.mode === "inline" ? "inline" : config.format;
      const result = fence(info, body, { format, defaults: config.defaults });
      made = { ...image(config, result), alt: result.alt, caption: result.caption };
      made.width = result.width;
      made.height = result.height;
      this.made.set(key, made);
    }
    if (made.fileName) this.files.add(made.fileName);
    this.bytes += made.image.length;
    if (this.bytes > config.maxBytes) {
      throw limit(`a document's diagrams may take at most ${config.maxBytes} bytes (the plugin's maxBytes)`);
    }
    return made;
  }
}

function limit(sentence) {
  const error = new Error(sentence);
  error.param = "fence";
  return error;
}

/** The image of a rendered fence in the mode's form: `{ svg }` (inline) or `{ src }`. */
function image(config, result) {
  switch (config.mode) {
    case "inline":
      // The crate's page form: no style sheet, ids of its own, named by the alt text.
      return { svg: result.data, image: result.data };
    case "data": {
      const type = result.format === "svg" ? "image/svg+xml" : "image/png";
      const src = `data:${type};base64,${Buffer.from(result.data).toString("base64")}`;
      return { src, image: src };
    }
    case "files": {
      writeNew(config.dir, result.fileName, result.data);
      const src = joined(config.link, result.fileName);
      return { src, image: src, fileName: result.fileName };
    }
    default: {
      const route = result.format === "svg" ? "diagram.svg" : "diagram";
      const src = `${config.url.replace(/\/+$/, "")}/${route}?${result.query}`;
      return { src, image: src };
    }
  }
}

/**
 * Which image files of `dir` each page links, kept outside `dir` (a site publishes that
 * folder) in node_modules/.cache/staunton: one JSON file a page, named by a hash of the
 * folder and of the page's path.
 */
function ledger(dir) {
  return join(process.cwd(), "node_modules", ".cache", "staunton", `files-${hash(resolve(dir))}`);
}

/** The plugin set-ups (their settings) whose ledger was swept for pages that are gone. */
const swept = new WeakSet();

/**
 * Record that `page` links the images `names` of `config.dir`, and remove from it the
 * images the page linked before that no page links now. Once a set-up (a build), the pages
 * whose file is gone (deleted or renamed) give up theirs. The other pages' records are
 * read only when there is something to remove. Only names a record holds are ever
 * removed: files the plugin did not write are left alone.
 */
function prune(config, page, names) {
  const book = ledger(config.dir);
  mkdirSync(book, { recursive: true });
  const own = join(book, `${hash(page)}.json`);
  const gone = new Set((read(own).names ?? []).filter((name) => !names.has(name)));
  writeFileSync(own, JSON.stringify({ page, names: [...names] }));
  if (!swept.has(config)) {
    swept.add(config);
    for (const e of entries(book)) {
      if (existsSync(e.page ?? "")) continue;
      for (const name of e.names ?? []) gone.add(name);
      unlinkSync(e.path);
    }
  }
  if (gone.size === 0) return;
  for (const e of entries(book)) for (const name of e.names ?? []) gone.delete(name);
  for (const name of gone) {
    const path = join(config.dir, name);
    if (/^[0-9a-z]{13}\.(svg|png)$/.test(name) && existsSync(path)) unlinkSync(path);
  }
}

/** The records of a ledger folder, each with its path. */
function entries(book) {
  return readdirSync(book)
    .filter((name) => name.endsWith(".json"))
    .map((name) => ({ path: join(book, name), ...read(join(book, name)) }));
}

/** A ledger entry read, or nothing when it cannot be. */
function read(path) {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return {};
  }
}

/** FNV-1a of a string, eight hex digits: a file name for a path. */
function hash(text) {
  let h = 0x811c9dc5;
  for (const byte of Buffer.from(text)) h = Math.imul(h ^ byte, 0x01000193) >>> 0;
  return h.toString(16).padStart(8, "0");
}

/** `link` and a file `name` joined with one `/`. */
function joined(link, name) {
  const prefix = String(link).replace(/\/+$/, "");
  return prefix === "" ? name : `${prefix}/${name}`;
}

/** Write `bytes` as `dir/name` unless it is there (its name is a hash of what it holds). */
function writeNew(dir, name, bytes) {
  const path = join(dir, name);
  if (existsSync(path)) return;
  mkdirSync(dir, { recursive: true });
  // Written beside it under a name of its own, then renamed: a reader never sees half.
  const temporary = join(dir, `.${name}.${process.pid}.tmp`);
  try {
    writeFileSync(temporary, bytes, { flag: "wx" });
    renameSync(temporary, path);
  } catch (error) {
    if (existsSync(temporary)) unlinkSync(temporary);
    throw error;
  }
}

/** Text escaped for an HTML attribute or element. */
export function escape(text) {
  return String(text)
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;");
}

/** A figure as one line of HTML: the SVG or an `<img>`, then the caption. */
export function html(figure, className) {
  const image =
    figure.svg ??
    `<img src="${escape(figure.src)}" alt="${escape(figure.alt)}" width="${figure.width}" height="${figure.height}">`;
  const caption = figure.caption == null ? "" : `<figcaption>${escape(figure.caption)}</figcaption>`;
  return `<figure class="${escape(className)}">${image}${caption}</figure>`;
}

/** A figure as a hast element: the SVG as hast elements, or an `<img>`; then the caption. */
export function hast(figure, className) {
  const image = figure.svg
    ? svgToHast(figure.svg)
    : element("img", {
        src: figure.src,
        alt: figure.alt,
        width: figure.width,
        height: figure.height,
      });
  const children = [image];
  if (figure.caption != null) {
    children.push(element("figcaption", {}, [{ type: "text", value: figure.caption }]));
  }
  return element("figure", { className: [className] }, children);
}

function element(tagName, properties, children = []) {
  return { type: "element", tagName, properties, children };
}

const ENTITIES = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

/** XML text with its entities (named and numeric) read. */
function decode(text) {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name) => {
    if (name[0] !== "#") return ENTITIES[name] ?? whole;
    const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    return String.fromCodePoint(code);
  });
}

/** An attribute's name as a hast property: `class` → `className`, `stroke-width` → `strokeWidth`. */
function property(name) {
  if (name === "class") return "className";
  const [space, local] = name.includes(":") ? name.split(":") : ["", name];
  const camel = local.replace(/-([a-z])/g, (_, c) => c.toUpperCase());
  if (space === "xlink") return `xLink${camel[0].toUpperCase()}${camel.slice(1)}`;
  if (space === "xml") return `xml${camel[0].toUpperCase()}${camel.slice(1)}`;
  if (space === "xmlns") return camel === "xlink" ? "xmlnsXLink" : `xmlns${camel[0].toUpperCase()}${camel.slice(1)}`;
  return camel;
}

/**
 * The renderer's SVG (well-formed XML: elements, double-quoted attributes, text, no
 * comments or CDATA) read into hast elements, so a remark pipeline needs no raw HTML.
 */
export function svgToHast(svg) {
  const root = element("root", {});
  const stack = [root];
  const tag = /<(\/?)([A-Za-z][\w:-]*)((?:\s+[\w:-]+="[^"]*")*)\s*(\/?)>/g;
  let at = 0;
  for (let m = tag.exec(svg); m !== null; m = tag.exec(svg)) {
    const parent = stack[stack.length - 1];
    if (m.index > at) parent.children.push({ type: "text", value: decode(svg.slice(at, m.index)) });
    at = tag.lastIndex;
    const [, closing, name, attributes, empty] = m;
    if (closing) {
      if (stack.length > 1) stack.pop();
      continue;
    }
    const properties = {};
    for (const [, key, value] of attributes.matchAll(/([\w:-]+)="([^"]*)"/g)) {
      const prop = property(key);
      properties[prop] = prop === "className" ? decode(value).split(/\s+/) : decode(value);
    }
    const node = element(name, properties);
    parent.children.push(node);
    if (!empty) stack.push(node);
  }
  return root.children.find((node) => node.type === "element") ?? root;
}
