// The composer draws its previews in the page (a service built with `--features
// composer-wasm`), and goes on drawing them when the service stops. Headless Chromium.
//
//   STAUNTON_BIN=target/composer-wasm/staunton node tests/browser/offline.mjs
//
// Starts the service itself (so it can stop it), opens /, waits until the page has loaded
// the renderer as WebAssembly (<html data-drawing="page">), then walks through edits (FEN,
// size, arrows, orientation, SVG, a game's ply, the whole game) and for each checks that the
// page drew the preview, that its pixels are those of the service's image for the same URL,
// and keeps them. It times the same edits drawn by the service (a second page that is not
// told of the wasm). Then it KILLS the service, makes the edits again in another order and
// checks each preview is drawn, changes, and has the pixels recorded before the stop; that a
// bad FEN shows the service's own sentence; that every URL offered to copy still names the
// service. Screenshots go to $SHOTS (default target/browser). Prints the preview latency per
// edit, in the page and via the service (a measure, not a check).

import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { createServer } from "node:net";
import { join, resolve } from "node:path";
import { check, launch, passed, pixelsIn, shots } from "./support.mjs";

const bin = process.env.STAUNTON_BIN || "target/composer-wasm/staunton";

const SICILIAN = "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2";
const BAD_FEN = "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1";

// The edits, each a whole state of the controls it sets, and what its URL holds (`want`)
// and does not (`not`). `pgn: true` is the page's example game.
const STATES = [
  { name: "a FEN", fen: SICILIAN, want: ["/diagram.png?", "fen=rnbqkbnr/pp1ppppp/8/2p5"], not: ["size=", "arrows=", "orientation="] },
  { name: "size 320", fen: SICILIAN, size: "320", want: ["size=320"], not: ["arrows="] },
  { name: "an arrow", fen: SICILIAN, size: "320", arrows: "Gc5d4", want: ["size=320", "arrows=Gc5d4"], not: ["orientation="] },
  { name: "black below", fen: SICILIAN, size: "320", arrows: "Gc5d4", orientation: "black", want: ["arrows=Gc5d4", "orientation=black"], not: ["/diagram.svg"] },
  { name: "as SVG", fen: SICILIAN, size: "320", arrows: "Gc5d4", orientation: "black", format: "svg", want: ["/diagram.svg?", "orientation=black"], not: [] },
  { name: "a game at ply 6", pgn: true, ply: "6", want: ["/diagram.png?", "pgn=", "ply=6"], not: ["fen="] },
  { name: "a game at ply 3", pgn: true, ply: "3", want: ["pgn=", "ply=3"], not: ["fen="] },
];

async function freePort() {
  return new Promise((done) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => done(port));
    });
  });
}

async function up(url) {
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(url + "/health")).ok) return true;
    } catch (e) { /* not yet */ }
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

// Set the controls to `state` (every control it names; the others to their defaults).
async function setState(page, state, pgn) {
  await page.selectOption("#format", state.format || "png");
  await page.selectOption("#orientation", state.orientation || "white");
  await page.locator("#size").fill(state.size || "400");
  await page.locator("#arrows").fill(state.arrows || "");
  if (state.pgn) {
    if (await page.inputValue("#pgn") !== pgn) {
      await page.locator("#pgn").fill(pgn);
      // The slider's range is known once the game has been read.
      await page.waitForFunction(() => Number(document.querySelector("#ply").max) > 6);
    }
    await page.locator("#ply").fill(state.ply);
  } else {
    await page.locator("#pgn").fill("");
    await page.locator("#fen").fill(state.fen);
  }
}

// Wait for the preview of `state` drawn by `drawn` ("page" or "service"); its URL.
async function previewOf(page, state, drawn) {
  await page.waitForFunction(([want, not, drawn]) => {
    const img = document.querySelector("#preview");
    const url = img.dataset.url || "";
    return !img.hidden && img.complete && img.naturalWidth > 0 && img.dataset.drawn === drawn
      && document.querySelector("#frame").getAttribute("aria-busy") === "false"
      && want.every((w) => url.includes(w)) && !not.some((n) => url.includes(n))
      && document.querySelector("#out-url").value === url;
  }, [state.want, state.not, drawn], { timeout: 15000 });
  return page.$eval("#preview", (img) => img.dataset.url);
}

// The SHA-256 of the pixels of the image at `src`, decoded and drawn by this browser,
// after its size.
async function pixels(page, src) {
  const image = await pixelsIn(page, src);
  const digest = createHash("sha256").update(Uint8Array.from(image.data)).digest("hex");
  return `${image.width}x${image.height}:${digest}`;
}

// The durations of the page's "composer:preview" measures drawn by `drawn`, then cleared.
async function latencies(page, drawn) {
  return page.evaluate((drawn) => {
    const all = performance.getEntriesByName("composer:preview");
    performance.clearMeasures("composer:preview");
    return all.filter((m) => m.detail && m.detail.drawn === drawn).map((m) => m.duration);
  }, drawn);
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor(sorted.length / 2)] : NaN;
}

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const server = spawn(resolve(bin), ["serve", "--addr", `127.0.0.1:${port}`], { stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, RUST_LOG: "warn" } });
let browser;
let failed = false;
try {
  check(await up(base), `the service (${bin}) answers on ${base}`);
  const api = await (await fetch(base + "/openapi.json")).json();
  check(api.paths["/js/web.js"] && api.paths["/js/staunton.wasm"], "/openapi.json lists /js/web.js and /js/staunton.wasm");
  const wasm = await fetch(base + "/js/staunton.wasm");
  check(wasm.headers.get("content-type") === "application/wasm" && wasm.headers.get("etag"),
    `/js/staunton.wasm is application/wasm with an ETag (${(await wasm.arrayBuffer()).byteLength} bytes)`);
  const again = await fetch(base + "/js/staunton.wasm", { headers: { "If-None-Match": wasm.headers.get("etag") } });
  check(again.status === 304, "and answers 304 to its ETag");
  const bad = await fetch(`${base}/diagram.png?fen=${encodeURIComponent(BAD_FEN)}`);
  const sentence = (await bad.text()).trim();
  check(bad.status === 400 && sentence.length > 0, `the service's sentence for a bad FEN: "${sentence}"`);

  browser = await launch();
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const problems = [];
  let stopped = false;
  page.on("pageerror", (e) => problems.push("page error: " + e.message));
  page.on("console", (m) => {
    // Once the service is stopped, the editor's own requests (the move list) fail.
    if ((m.type() === "error" || m.type() === "warning") && !stopped) problems.push(`console ${m.type()}: ${m.text()}`);
  });
  const asked = [];
  page.on("request", (r) => { if (stopped) asked.push(r.url()); });

  // --- the page loads the wasm, then draws every preview ----------------------------
  await page.goto(base + "/");
  await page.waitForFunction(() => document.documentElement.dataset.drawing === "page", null, { timeout: 30000 });
  const ready = await page.evaluate(() => performance.getEntriesByName("composer:drawing")[0].startTime);
  check(true, `the page loaded the renderer (<html data-drawing="page">) ${ready.toFixed(0)} ms after it opened`);
  const pgn = await page.$eval("button.example-game", (b) => b.dataset.pgn);
  await latencies(page, "page");
  const reference = new Map();
  for (const state of STATES) {
    await setState(page, state, pgn);
    const url = await previewOf(page, state, "page");
    const here = await pixels(page, await page.$eval("#preview", (img) => img.src));
    const there = await pixels(page, url);
    check(here === there, `${state.name}: drawn in the page, the service's pixels for ${url.slice(base.length, base.length + 60)}… (${here.split(":")[0]})`);
    reference.set(state.name, { url, here });
  }
  const inPage = await latencies(page, "page");
  check(problems.length === 0, "no script errors or CSP violations" + (problems.length ? ": " + problems.join("; ") : ""));

  // --- the same edits drawn by the service, for the latency ---------------------------
  const plain = await context.newPage();
  await plain.route(base + "/openapi.json", async (route) => {
    const response = await route.fetch();
    const doc = await response.json();
    delete doc.paths["/js/web.js"];
    delete doc.paths["/js/staunton.wasm"];
    await route.fulfill({ response, json: doc });
  });
  await plain.goto(base + "/");
  await previewOf(plain, { want: ["fen=start"], not: [] }, "service");
  await latencies(plain, "service");
  for (const state of STATES) {
    await setState(plain, state, pgn);
    await previewOf(plain, state, "service");
  }
  const viaService = await latencies(plain, "service");
  await plain.close();

  // --- stop the service, edit again -----------------------------------------------------
  server.kill("SIGKILL");
  await new Promise((r) => server.once("exit", r));
  stopped = true;
  let reachable = true;
  try { await fetch(base + "/health"); } catch (e) { reachable = false; }
  check(!reachable, "the service is stopped");

  // A bad value: the service's sentence, by its control, no broken image.
  await page.locator("#pgn").fill("");
  await page.locator("#fen").fill(BAD_FEN);
  await page.waitForFunction(() => document.querySelector("#fen-error").textContent !== "", null, { timeout: 15000 });
  const shown = (await page.textContent("#fen-error")).trim();
  check(shown === sentence, `stopped: a bad FEN shows the service's sentence ("${shown}")`);
  check(await page.$eval("#preview", (img) => img.hidden), "and no diagram");
  await page.screenshot({ path: join(shots, "composer-offline-error.png"), fullPage: false });

  let previous = "";
  for (const state of [...STATES].reverse()) {
    await setState(page, state, pgn);
    const url = await previewOf(page, state, "page");
    const now = await pixels(page, await page.$eval("#preview", (img) => img.src));
    const was = reference.get(state.name);
    check(url === was.url && now === was.here,
      `stopped: ${state.name} is drawn in the page, with the pixels the service gave for the same URL`);
    check(now !== previous, `stopped: the preview changed for ${state.name}`);
    previous = now;
    const outputs = await page.evaluate(() => ["out-url", "out-img", "out-srcset", "out-md", "out-card"]
      .map((id) => document.getElementById(id).value));
    check(outputs.every((text) => text.includes(base + "/")) && outputs[0] === url,
      "stopped: every URL offered to copy names the service");
  }
  await page.waitForFunction(() => document.querySelector("#board-img").src.startsWith("blob:")
    && !document.querySelector("#board").classList.contains("stale"), null, { timeout: 15000 });
  check(true, "stopped: the editor's board is drawn in the page too");
  await page.evaluate(() => { document.activeElement?.blur(); window.scrollTo(0, 0); });
  await page.screenshot({ path: join(shots, "composer-offline.png"), fullPage: true });

  // The whole game, animated, drawn in the page.
  await setState(page, STATES[STATES.length - 1], pgn);
  await page.check("#whole");
  await previewOf(page, { want: ["/game.gif?", "pgn="], not: ["ply="] }, "page");
  check(/^Animated GIF/.test(await page.textContent("#status-text")), "stopped: the whole game is an animated GIF drawn in the page");
  await page.uncheck("#whole");

  const routes = ["/diagram.png", "/diagram.svg", "/game.gif", "/describe"];
  const diagrams = asked.filter((u) => !u.startsWith("blob:") && routes.includes(new URL(u).pathname));
  check(diagrams.length === 0,
    "stopped: neither the preview nor the editor's board asked the service for a diagram" + (diagrams.length ? ": " + diagrams.join(", ") : ""));
  check(problems.length === 0, "no script errors" + (problems.length ? ": " + problems.join("; ") : ""));

  const ms = (v) => `${median(v).toFixed(1)} ms (median of ${v.length}; min ${Math.min(...v).toFixed(1)}, max ${Math.max(...v).toFixed(1)})`;
  console.log(`latency per edit, from the render's start to the image shown (the 250 ms pause after typing not counted):`);
  console.log(`  drawn in the page: ${ms(inPage)}`);
  console.log(`  via the service:   ${ms(viaService)}`);
} catch (e) {
  failed = true;
  console.error(e.message);
} finally {
  if (browser) await browser.close();
  server.kill("SIGKILL");
}
if (failed) process.exit(1);
console.log(`offline: ${passed()} checks passed; screenshots in ${shots}`);
