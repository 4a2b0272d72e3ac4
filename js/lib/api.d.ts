// The functions both entries export (node.js and web.js).
import type { Fence, FenceOptions, Game, GameOptions, Options, Position } from "./types.js";

export type * from "./types.js";

/** The diagram as a PNG image (8-bit palette). */
export function png(position?: Position, options?: Options): Uint8Array;
/** The diagram as a self-contained SVG document (its <title> describes the position). */
export function svg(position?: Position, options?: Options): string;
/** The diagram as a one-page vector PDF (dpi sets the page size; default 72). */
export function pdf(position?: Position, options?: Options): Uint8Array;
/** The diagram as a lossless WebP image. */
export function webp(position?: Position, options?: Options): Uint8Array;
/** The diagram as a still GIF image. */
export function gif(position?: Position, options?: Options): Uint8Array;
/** The position as a text board. */
export function text(position?: Position, options?: Options): string;
/** The position in words (options.lang: en, de, fr, es…): alt text. */
export function describe(position?: Position, options?: Options): string;
/** A whole game as an animated GIF, one frame per ply (or options.moves from options.fen). */
export function gameGif(pgn?: Game, options?: GameOptions): Uint8Array;
/** A whole game as an animated PNG (APNG). */
export function gamePng(pgn?: Game, options?: GameOptions): Uint8Array;
/** One Markdown fence (its info string and body) read with the crate's grammar and rendered. */
export function fence(info: string, body: string, options?: FenceOptions): Fence;
/** The package's version (the crate's). */
export function version(): string;
