// The API of the Node entry: each function and format, options in every accepted form,
// and the errors (the service's sentences, the parameter at fault, the names and types
// the glue refuses).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as staunton from "../lib/node.js";
import { fnv1a } from "./helpers.mjs";

const AFTER_E4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";
const GAME = '[White "Anderssen"]\n[Black "Kieseritzky"]\n\n1. e4 e5 2. f4 exf4 3. Bc4 Qh4+ 4. Kf1 b5';

const text = (bytes) => new TextDecoder().decode(bytes);
const same = (a, b) => assert.equal(fnv1a(a), fnv1a(b));

test("each function gives its format", () => {
  assert.equal(text(staunton.png("start").subarray(1, 4)), "PNG");
  assert.match(staunton.svg("start"), /^<svg /);
  assert.equal(text(staunton.pdf("start").subarray(0, 5)), "%PDF-");
  assert.equal(text(staunton.webp("start").subarray(8, 12)), "WEBP");
  assert.equal(text(staunton.gif("start").subarray(0, 6)), "GIF89a");
  assert.match(staunton.text("start"), /♜|r/);
  assert.ok(staunton.png("start") instanceof Uint8Array);
});

test("init() resolves at once in Node, so code written for the browser runs unchanged", async () => {
  assert.equal(await staunton.init(), undefined);
});

test("the version is the crate's and the package's", () => {
  const cargo = readFileSync(new URL("../../Cargo.toml", import.meta.url), "utf8");
  const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
  assert.equal(staunton.version(), cargo.match(/^version = "(.*)"/m)[1]);
  assert.equal(pkg.version, staunton.version());
});

test("an option in its JS type gives what its query string gives", () => {
  same(staunton.png(AFTER_E4, { size: 240 }), staunton.png(AFTER_E4, { size: "240" }));
  same(
    staunton.png(AFTER_E4, { arrows: ["Ge2e4", "Rg1f3"], squares: ["d5", "e5"] }),
    staunton.png(AFTER_E4, { arrows: "Ge2e4,Rg1f3", squares: "d5,e5" }),
  );
  same(staunton.svg(AFTER_E4, { turn: true }), staunton.svg(AFTER_E4, { turn: "1" }));
  same(staunton.png(AFTER_E4, { check: true, lastMove: "e2e4" }), staunton.png(AFTER_E4, { check: "auto", lastMove: "e2e4" }));
  same(staunton.png(AFTER_E4, { check: false }), staunton.png(AFTER_E4));
  same(staunton.png(AFTER_E4, { size: undefined, theme: null }), staunton.png(AFTER_E4));
  same(staunton.png(undefined, { moves: ["e2e4", "e7e5"] }), staunton.png(undefined, { moves: "e2e4 e7e5" }));
});

test("options take the table's spellings, camelCase, snake_case and any case", () => {
  const expected = staunton.png(AFTER_E4, { lastMove: "e2e4" });
  for (const name of ["last_move", "lastmove", "LastMove", "last-move"]) {
    same(staunton.png(AFTER_E4, { [name]: "e2e4" }), expected);
  }
  same(staunton.png("start", { coords: "none" }), staunton.png("start", { coordinates: "none" }));
});

test("the position may come from options (fen, pgn, moves), or from an object with fen()", () => {
  same(staunton.png(undefined, { fen: AFTER_E4 }), staunton.png(AFTER_E4));
  same(staunton.png(undefined, { pgn: "1. e4", ply: 1 }), staunton.png(undefined, { moves: "e2e4", ply: "1" }));
  same(staunton.png({ fen: () => AFTER_E4 }), staunton.png(AFTER_E4));
  assert.throws(() => staunton.png(), { param: "fen", message: /^fen is missing/ });
});

test("describe gives the alt text, in the language asked for", () => {
  assert.match(staunton.describe("start"), /^White: King e1/);
  assert.match(staunton.describe("start", { lang: "de" }), /^Weiß: König e1/);
  assert.match(staunton.describe(undefined, { pgn: GAME, ply: 2 }), /e5/);
});

test("gameGif and gamePng animate a game, from PGN text or moves", () => {
  const animated = staunton.gameGif(GAME, { size: 160, delay: 50 });
  assert.equal(text(animated.subarray(0, 6)), "GIF89a");
  const apng = staunton.gamePng(GAME, { size: 160, from: 2, to: 4 });
  assert.equal(text(apng.subarray(1, 4)), "PNG");
  assert.ok(text(apng).includes("acTL"), "an animated PNG");
  same(staunton.gameGif(undefined, { moves: ["e2e4", "e7e5"], size: 160 }), staunton.gameGif("1. e4 e5", { size: 160 }));
  same(staunton.gameGif({ pgn: () => "1. e4 e5" }, { size: 160 }), staunton.gameGif("1. e4 e5", { size: 160 }));
});

test("a bad value throws the service's sentence and names the parameter", () => {
  assert.throws(() => staunton.png("start", { size: 4096 }), {
    message: 'size "4096" is not allowed: expected a whole number of pixels from 16 to 2048',
    param: "size",
  });
  assert.throws(() => staunton.png("rnbqkbnr/pppppppp/8/8"), { param: "fen", message: /4 ranks/ });
  assert.throws(() => staunton.svg("start", { pieces: "nosuchset" }), { param: "pieces", message: /pieces "nosuchset" is not allowed/ });
  assert.throws(() => staunton.png("start", { orientation: "up" }), { param: "orientation" });
  assert.throws(() => staunton.describe("start", { lang: "pt" }), {
    param: "lang",
    message: /^lang "pt" is not allowed: expected one of en, de, it, fr, es, nl, ja/,
  });
  assert.throws(() => staunton.gameGif(), { param: "pgn", message: /^pgn is missing/ });
  const error = (() => { try { staunton.png("start", { size: 1 }); } catch (e) { return e; } })();
  assert.ok(error instanceof Error && !(error instanceof TypeError));
});

test("the service's limits hold: FEN bytes, arrows, squares, size, PGN length, plies", () => {
  const fen = `${"8/".repeat(7)}8 w - - 0 1${" ".repeat(1100)}`;
  assert.throws(() => staunton.png(fen), { param: "fen", message: /at most 1024 bytes/ });
  const arrows = Array.from({ length: 65 }, () => "Ge2e4");
  assert.throws(() => staunton.png("start", { arrows }), { param: "arrows", message: /at most 64/ });
  const squares = Array.from({ length: 81 }, () => "e4");
  assert.throws(() => staunton.png("start", { squares }), { param: "squares", message: /at most 80/ });
  const long = `${"1. e4 e5 ".repeat(2000)}${" ".repeat(50000)}`;
  // A game, as an option or as the text of gameGif(), may be as long as a POSTed body
  // (64 KiB), no longer: the crate's one limit for every door.
  const refused = { param: "pgn", message: `pgn is ${long.length} bytes long: at most 65536 bytes are read` };
  assert.throws(() => staunton.png(undefined, { pgn: long }), refused);
  assert.throws(() => staunton.gameGif(long), refused);
  const plies = "1. Nf3 Nf6 2. Ng1 Ng8 ".repeat(251);
  assert.throws(() => staunton.gameGif(plies), { param: "pgn", message: /at most 1000/ });
});

test("the cost bound is checked before a render starts", () => {
  const shuffle = "1. Nf3 Nf6 2. Ng1 Ng8 ".repeat(100);
  assert.throws(() => staunton.gameGif(shuffle, { size: 2048 }), {
    param: "size",
    message: /^the animation of 401 frames of 2048×2048 pixels would cost .* megapixels/,
  });
});

test("an unknown option is a TypeError naming it, and the nearest name", () => {
  assert.throws(() => staunton.png("start", { sise: 300 }), {
    name: "TypeError",
    param: "sise",
    message: "png() has no option sise (did you mean size?)",
  });
  assert.throws(() => staunton.png("start", { zzzzzzzz: 1 }), { message: "png() has no option zzzzzzzz", param: "zzzzzzzz" });
  assert.throws(() => staunton.svg("start", { format: "png" }), { message: /the function names the format/ });
  assert.throws(() => staunton.png("start", { delay: 50 }), { message: /an option of gameGif\(\) and gamePng\(\)/ });
  assert.throws(() => staunton.gameGif(GAME, { ply: 3 }), { param: "ply", message: /shows every ply/ });
  assert.throws(() => staunton.png("start", { fen: "start" }), { param: "fen", message: /the position twice/ });
});

test("a value of the wrong type is a TypeError naming the option", () => {
  assert.throws(() => staunton.png("start", { size: { px: 3 } }), {
    name: "TypeError",
    param: "size",
    message: "option size takes a string, a number or a boolean, not an object",
  });
  assert.throws(() => staunton.png("start", { arrows: [1, 2] }), { param: "arrows", message: /a string or an array of strings/ });
  assert.throws(() => staunton.png("start", { size: [300] }), { param: "size" });
  assert.throws(() => staunton.png("start", { size: Number.NaN }), { param: "size" });
  assert.throws(() => staunton.png(42), { name: "TypeError", param: "fen" });
  assert.throws(() => staunton.png("start", "size=300"), { name: "TypeError", message: /one object/ });
  assert.throws(() => staunton.gameGif(7), { name: "TypeError", param: "pgn" });
});

test("fence() reads a Markdown fence with the crate's grammar and renders it", () => {
  const svg = staunton.fence("fen size=240", `${AFTER_E4}\narrows: Ge2e4\ncaption: After 1. e4`);
  assert.equal(svg.format, "svg");
  assert.match(svg.data, /^<svg /);
  assert.equal(svg.caption, "After 1. e4");
  assert.match(svg.alt, /Black to move/);
  assert.equal(svg.width, 240);
  assert.equal(svg.height, 240);
  assert.match(svg.fileName, /^[0-9a-z]{13}\.svg$/);
  assert.equal(svg.query, "fen=rnbqkbnr%2Fpppppppp%2F8%2F8%2F4P3%2F8%2FPPPP1PPP%2FRNBQKBNR+b+KQkq+e3+0+1&size=240&arrows=Ge2e4");
  same(svg.data, staunton.svg(undefined, Object.fromEntries(new URLSearchParams(svg.query))));

  const png = staunton.fence("chess", "start", { format: "png", defaults: { size: "160", alt: "The start" } });
  assert.equal(png.format, "png");
  assert.ok(png.data instanceof Uint8Array);
  assert.deepEqual([png.width, png.height, png.alt, png.caption], [160, 160, "The start", null]);
  assert.match(png.fileName, /\.png$/);
  same(png.data, staunton.png("start", { size: 160 }));
});

test("fence() errors: the grammar's sentences, and its own options checked", () => {
  assert.throws(() => staunton.fence("python", "start"), { param: "fence", message: /is not a diagram/ });
  assert.throws(() => staunton.fence("fen", "start\nsize: 5"), { param: "size" });
  assert.throws(() => staunton.fence("pgn", ""), { param: "pgn", message: /a pgn fence needs a game/ });
  assert.throws(() => staunton.fence("fen", "start", { format: "gif" }), { name: "TypeError", param: "format" });
  assert.throws(() => staunton.fence("fen", "start", { size: 3 }), { name: "TypeError", param: "size" });
  assert.throws(() => staunton.fence("fen", 3), { name: "TypeError" });
});
