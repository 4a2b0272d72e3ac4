// The types the entries share: options, fence results, errors.

/** A position: a FEN (or "start", "empty"), or an object with a fen() method (chess.js). */
export type Position = string | { fen(): string } | null | undefined;

/** A list option: the query's own comma-separated string, or an array of its items. */
export type List = string | readonly string[];

/**
 * The options of a diagram: the HTTP parameters, in camelCase as in the parameter table
 * (the table's own spellings are accepted too). Each value may also be the query's own
 * string form ("Ge2e4,Rg1f3", "1"). An unknown name or a wrong type throws a TypeError
 * naming the option.
 */
export interface Options {
  fen?: string;
  dialect?: "standard" | "fairy" | "letters" | (string & {});
  board?: string;
  size?: number | string;
  orientation?: "white" | "black" | "turn" | (string & {});
  coordinates?: "outside" | "inside" | "none" | (string & {});
  style?: "letters" | "figurines" | (string & {});
  pieces?: string;
  theme?: string;
  light?: string;
  dark?: string;
  background?: string;
  labels?: string;
  caption?: string;
  lastMove?: string;
  /** true: the king in check, if one is ("auto"); a square names it. */
  check?: boolean | string;
  arrows?: List;
  squares?: List;
  highlight?: List;
  annotations?: string;
  marks?: List;
  dots?: List;
  legalMoves?: string;
  pgn?: string;
  /** UCI moves: an array, or one string separated by spaces or commas. */
  moves?: List;
  ply?: number | string;
  move?: string;
  glyph?: string;
  dpi?: number | string;
  turn?: boolean | string;
  region?: string;
  lang?: string;
  /** SVG only: "portable" writes every piece out (QtSvg, NanoSVG); "compact" is smaller. */
  svg?: "compact" | "portable" | (string & {});
  [spelling: string]: string | number | boolean | readonly string[] | null | undefined;
}

/** The options of a whole game's animation: a diagram's, and the game's own. */
export interface GameOptions extends Options {
  /** Hundredths of a second per frame (default 80). */
  delay?: number | string;
  /** Hundredths of a second on the last frame (default 300). */
  lastDelay?: number | string;
  loop?: boolean | string;
  /** The first ply shown. */
  from?: number | string;
  /** The last ply shown. */
  to?: number | string;
  /** Name bars from the PGN's White and Black tags. */
  players?: boolean | string;
}

/** A game: PGN text, or an object with a pgn() method (chess.js). */
export type Game = string | { pgn(): string } | null | undefined;

/** What fence() takes besides the fence. */
export interface FenceOptions {
  /**
   * The output: "svg" (the default) or "png", an image file; or "inline", the SVG element
   * an HTML page holds (svg=inline on the page's colours unless given, named by the alt
   * text), as `staunton markdown --inline` writes it.
   */
  format?: "svg" | "png" | "inline";
  /** Options given before the fence's own (e.g. { size: "320" }). */
  defaults?: Record<string, string | number | boolean>;
}

/** One Markdown fence read and rendered. */
export interface Fence {
  format: "svg" | "png";
  /** The SVG document (or element, for "inline"), or the PNG's bytes. */
  data: string | Uint8Array;
  /** The fence's alt, or the position described. */
  alt: string;
  caption: string | null;
  width: number;
  height: number;
  /** A file name from a hash of the diagram: equal diagrams, equal names. */
  fileName: string;
  /** The service's query string for the same diagram (without the "?"). */
  query: string;
}

/** The errors thrown: the service's sentence, and the parameter at fault when known. */
export interface StauntonError extends Error {
  param?: string;
  /** For a name that is no option: the nearest parameter's canonical name, the crate's
   * suggestion (the one the service and the Python package make), if one is near. */
  suggestion?: string;
  /** `fence()` only: the line of the body the fault stands on (1 the first; 0 the opening line). */
  line?: number;
}
