// Type-checked by `deno check` in scripts/ci/js-test.sh: the package's declarations cover
// what a TypeScript user writes, and refuse what is wrong (the @ts-expect-error lines).
import { describe, fence, gameGif, init, png, svg, type Fence, type Options } from "staunton";

await init();
const options: Options = { size: 240, arrows: ["Ge2e4"], check: true, lastMove: "e2e4" };
const image: Uint8Array = png("start", options);
const document: string = svg({ fen: () => "start" }, { orientation: "black" });
const words: string = describe(undefined, { pgn: "1. e4", lang: "de" });
const animation: Uint8Array = gameGif("1. e4 e5", { delay: 50, loop: false, from: 0 });
const diagram: Fence = fence("fen", "start", { format: "png", defaults: { size: "160" } });
const caption: string | null = diagram.caption;
// @ts-expect-error: a position is a string or has fen()
png(42);
// @ts-expect-error: fence() makes SVG or PNG only
fence("fen", "start", { format: "gif" });
// @ts-expect-error: the result of svg() is a string
const wrong: Uint8Array = svg("start");
console.log(image.length, document.length, words, animation.length, caption, wrong);
