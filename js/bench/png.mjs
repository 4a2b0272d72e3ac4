// Speed, side by side in one Node process: staunton's png() against the same diagram's SVG
// (staunton's svg()) rasterised to PNG by @resvg/resvg-wasm, the straightforward design in
// JavaScript; and staunton's own svg(). Every case is first run for about two seconds in
// all (V8 compiles hot WebAssembly functions a second time, optimised, in the background),
// then each renders as many times as fit in about a second: the median of five rounds of
// 200 ms is printed.
//
//   cd js && npm ci && npm run build && node bench/png.mjs
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { initWasm, Resvg } from "@resvg/resvg-wasm";
import * as staunton from "../lib/node.js";

const require = createRequire(import.meta.url);
await initWasm(readFileSync(require.resolve("@resvg/resvg-wasm/index_bg.wasm")));

const CASES = {
  "start/400": { fen: "start" },
  "middlegame/400": { fen: "r1bq1rk1/pp3ppp/3n4/2p1N3/2B5/7P/PPP2PP1/R1BQR1K1 w - - 0 1" },
  "annotated/400": {
    fen: "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
    lastMove: "d8h4",
    check: "auto",
    arrows: "Gh4e1,Rg2g3,Yb1c3",
    highlight: "Ge5,Rf3",
  },
  "start/800": { fen: "start", size: 800 },
};

/** Milliseconds per call of `work`: the median of five rounds of about 200 ms each. */
function time(work) {
  work();
  const rounds = [];
  for (let r = 0; r < 5; r++) {
    let n = 0;
    const start = performance.now();
    while (performance.now() - start < 200) {
      work();
      n += 1;
    }
    rounds.push((performance.now() - start) / n);
  }
  return rounds.sort((a, b) => a - b)[2];
}

const warm = Date.now();
while (Date.now() - warm < 2000) {
  for (const options of Object.values(CASES)) {
    new Resvg(staunton.svg(undefined, options)).render().asPng();
    staunton.png(undefined, options);
  }
}

const ms = (t) => `${t < 1 ? t.toFixed(3) : t.toFixed(2)} ms`;
console.log(`Node ${process.version}, staunton ${staunton.version()}, @resvg/resvg-wasm 2.6.2`);
console.log("case            png()      svg()      resvg-wasm(svg()) → PNG   resvg / png()");
for (const [name, options] of Object.entries(CASES)) {
  const svg = staunton.svg(undefined, options);
  const rasterise = () => new Resvg(svg).render().asPng();
  const resvgPng = rasterise();
  const ours = staunton.png(undefined, options);
  if (resvgPng.length < 100 || ours.length < 100) throw new Error(`${name}: an empty image`);
  const png = time(() => staunton.png(undefined, options));
  const svgTime = time(() => staunton.svg(undefined, options));
  const resvg = time(rasterise);
  console.log(
    `${name.padEnd(15)} ${ms(png).padEnd(10)} ${ms(svgTime).padEnd(10)} ${ms(resvg).padEnd(25)} ${(resvg / png).toFixed(1)}×`,
  );
}
