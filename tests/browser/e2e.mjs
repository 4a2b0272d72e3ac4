// End-to-end test of the front page (the composer) in headless Chromium (Debian's package).
//
//   STAUNTON_URL=http://127.0.0.1:8080 node tests/browser/e2e.mjs
//
// Opens /, types a FEN, changes options, waits for the preview; checks the image loaded,
// its alt text, that the copied <img> URL answers the preview's very bytes, that the page's
// URL holds the state and a reload restores it, that bad values show the service's own
// sentence by their control (and no broken image), that the keyboard reaches every control
// and Copy button, that copying works, and that a page's bad <img> shows the error as an
// image of the requested size (and fetch and a tab get the text). Fails on any script
// error, CSP violation or request to another origin. Screenshots go to $SHOTS (default target/browser).
// Exits non-zero on any failure, with the failed check's message.

import { chromium } from "playwright-core";
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";

const base = (process.env.STAUNTON_URL || "http://127.0.0.1:8080").replace(/\/+$/, "");
const shots = resolve(process.env.SHOTS || "target/browser");
const executablePath = process.env.CHROMIUM || "/usr/bin/chromium";
mkdirSync(shots, { recursive: true });

let passed = 0;
function check(condition, message) {
  if (!condition) throw new Error("FAILED: " + message);
  passed += 1;
  console.log("ok " + passed + " - " + message);
}

async function bytes(url) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`FAILED: GET ${url} answered ${r.status}: ${await r.text()}`);
  return Buffer.from(await r.arrayBuffer());
}

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const SICILIAN = "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2";
const BAD_FEN = "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1";

// Wait until the preview shows a loaded image whose URL satisfies `wanted` (substrings).
async function previewLoaded(page, wanted = [], timeout = 15000) {
  await page.waitForFunction((wanted) => {
    const img = document.querySelector("#preview");
    return !img.hidden && img.complete && img.naturalWidth > 0
      && wanted.every((w) => img.currentSrc.includes(w))
      && document.querySelector("#out-img").value.includes(img.currentSrc.replace(/&/g, "&amp;"));
  }, wanted, { timeout });
}

// No <img> on the page is broken: each is hidden, or loaded with a size.
async function noBrokenImage(page) {
  return page.$$eval("img", (imgs) => imgs.every((img) =>
    img.hidden || img.offsetParent === null || (img.complete && img.naturalWidth > 0)));
}

let browser;
let failed = false;
try {
  try {
    browser = await chromium.launch({
      executablePath,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    });
  } catch (e) {
    throw new Error(`FAILED: cannot start Chromium at ${executablePath} (set CHROMIUM): ${e.message}`);
  }
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: base });
  const page = await context.newPage();

  // Anything the page should never do. A 400 is expected only while a bad value is typed.
  const problems = [];
  let expect400 = false;
  page.on("pageerror", (e) => problems.push("page error: " + e.message));
  page.on("console", (m) => {
    if (m.type() !== "error" && m.type() !== "warning") return;
    const text = m.text();
    if (expect400 && /status of 400/.test(text)) return;
    problems.push(`console ${m.type()}: ${text}`);
  });
  page.on("request", (r) => {
    const url = r.url();
    if (!url.startsWith(base + "/") && !url.startsWith("data:")) problems.push("request to another origin: " + url);
  });
  page.on("requestfailed", (r) => problems.push(`request failed: ${r.url()} (${r.failure()?.errorText})`));
  page.on("response", (r) => {
    if (r.status() >= 400 && !(expect400 && r.status() === 400)) problems.push(`HTTP ${r.status()} for ${r.url()}`);
  });
  const noProblems = (when) => check(problems.length === 0,
    `no script errors, CSP violations or stray requests ${when}` + (problems.length ? ": " + problems.join("; ") : ""));

  // --- the page loads, its lists come from /openapi.json -------------------------------
  const first = await page.goto(base + "/");
  check(first && first.ok(), `GET / answers ${first && first.status()}`);
  check(await page.title() === "Staunton — chess diagrams", "the page has its title");
  await page.waitForFunction(() => document.querySelector("#theme").options.length > 0);
  await previewLoaded(page, ["fen=start"]);
  const api = await (await fetch(base + "/openapi.json")).json();
  const apiParams = Object.fromEntries(api.paths["/diagram"].get.parameters.map((p) => [p.name, p]));
  for (const name of ["theme", "pieces", "orientation", "coordinates", "format", "lang"]) {
    const offered = await page.$$eval(`#${name} option`, (os) => os.map((o) => o.value));
    check(JSON.stringify(offered) === JSON.stringify(apiParams[name].schema.enum),
      `#${name} offers the API's values (${offered.join(", ")})`);
  }
  check(await page.getAttribute("#size", "max") === String(apiParams.size.schema.maximum),
    "#size's maximum is the API's");
  for (const id of ["fen", "size", "orientation", "coordinates", "theme", "pieces", "format", "lang", "lastMove",
    "check", "arrows", "squares", "highlight", "marks", "dots", "legalMoves", "annotations", "region", "board-shape",
    "turn", "light", "dark"]) {
    const labelled = await page.$eval(`#${id}`, (el) => el.labels.length > 0 && el.labels[0].textContent.trim() !== "");
    check(labelled, `#${id} has a label`);
  }

  // --- compose: a FEN and two options ---------------------------------------------------
  await page.locator("#fen").fill(SICILIAN);
  await page.selectOption("#theme", "blue");
  await page.selectOption("#orientation", "black");
  await page.locator("#arrows").fill("Gc5d4");
  await previewLoaded(page, ["theme=blue", "orientation=black", "arrows=Gc5d4", "2p5/4P3"]);
  const preview = await page.$eval("#preview", (img) => ({
    src: img.currentSrc, width: img.naturalWidth, height: img.naturalHeight, alt: img.alt,
  }));
  check(preview.width > 0, `the preview loaded (${preview.width} × ${preview.height})`);
  check(preview.alt.includes("White:") && preview.alt.includes("Black to move."),
    `the preview's alt describes the position: "${preview.alt.slice(0, 50)}…"`);

  const tag = await page.inputValue("#out-img");
  const src = tag.match(/src="([^"]+)"/)[1].replace(/&quot;/g, "\"").replace(/&amp;/g, "&");
  check(src.startsWith(base + "/"), "the <img> tag's src is an absolute URL of this service");
  check(tag.includes(`width="${preview.width}" height="${preview.height}"`), "the <img> tag has the image's width and height");
  check(/ alt="White: [^"]+"/.test(tag), "the <img> tag has the description as alt");
  const copied = await bytes(src);
  const shown = await bytes(preview.src);
  check(copied.equals(shown), `the <img> tag's URL answers the preview's bytes (${copied.length} bytes)`);
  check(copied.subarray(0, 8).equals(PNG), "and they are a PNG");
  check(await page.inputValue("#out-url") === src, "#out-url is the same URL");

  const srcset = await page.inputValue("#out-srcset");
  const m = srcset.match(/srcset="([^" ]+) 2x"/);
  check(m && m[1].includes("size=800"), "the srcset variant offers size=800 at 2x");
  check(srcset.includes(`width="${preview.width}"`), "and keeps the 1x width");
  const dense = await bytes(m[1].replace(/&amp;/g, "&"));
  check(dense.readUInt32BE(16) === 2 * preview.width, "the 2x URL answers an image twice as wide");
  const md = await page.inputValue("#out-md");
  check(md.startsWith("![White:") && md.endsWith(`](${src})`), "the Markdown image has alt and URL");
  check(!src.includes("size=") && !src.includes("coordinates="), "defaults are left out of the URL");

  const own = page.url();
  check(own.includes("theme=blue") && own.includes("orientation=black") && own.includes("arrows=Gc5d4"),
    `the page URL holds the state: ${own}`);
  await page.evaluate(() => { document.activeElement?.blur(); window.scrollTo(0, 0); });
  await page.screenshot({ path: join(shots, "composer.png"), fullPage: true });

  // --- reload: the controls come back ------------------------------------------------
  await page.reload();
  await previewLoaded(page, ["theme=blue"]);
  const restored = await page.evaluate(() => Object.fromEntries(
    ["fen", "theme", "orientation", "arrows", "size", "coordinates"].map((id) => [id, document.getElementById(id).value])));
  check(restored.fen === SICILIAN && restored.theme === "blue" && restored.orientation === "black"
    && restored.arrows === "Gc5d4" && restored.size === "400" && restored.coordinates === "outside",
    "reloading the page URL restores the controls");
  check(await page.$eval("#preview", (img) => img.currentSrc) === preview.src, "and the same diagram");

  // --- the keyboard reaches every control and the Copy buttons --------------------------
  await page.evaluate(() => { document.activeElement?.blur(); window.scrollTo(0, 0); });
  const reached = [];
  for (let i = 0; i < 100; i++) {
    await page.keyboard.press("Tab");
    const id = await page.evaluate(() => document.activeElement?.id
      || document.activeElement?.getAttribute("role") || document.activeElement?.tagName);
    reached.push(id);
    if (id === "copy-md") break;
  }
  const fenAt = reached.indexOf("fen");
  check(reached[0] === "BUTTON" && reached.indexOf("gridcell") > 0 && reached.indexOf("gridcell") < fenAt,
    `the first Tab stops are the board editor's tools, palette and board, then #fen (${reached.slice(0, 4).join(", ")}…)`);
  check(reached.filter((id) => id === "gridcell").length === 1, "the board is one Tab stop (arrow keys move within it)");
  for (const id of ["ed-start", "ed-empty", "ed-flip", "ed-clear", "ed-paste", "ed-side", "size", "orientation", "coordinates", "theme", "pieces", "format", "custom-colours", "turn",
    "lastMove", "check", "arrows", "squares", "highlight", "annotations", "copy-url", "copy-img", "copy-srcset", "copy-md"]) {
    check(reached.includes(id), `Tab reaches #${id}`);
  }
  const ring = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
  check(ring !== "none", `the focused Copy button shows a focus ring (${ring})`);
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => document.querySelector("#copy-md .copy-text").textContent === "Copied", null, { timeout: 5000 });
  check(/copied/i.test(await page.textContent("#copied")), "copying is announced: " + await page.textContent("#copied"));
  const clip = await page.evaluate(() => navigator.clipboard.readText());
  check(clip === md, "Enter on Copy put the Markdown on the clipboard");
  noProblems("so far");

  // Without the async clipboard (an insecure origin, say), Copy falls back to execCommand.
  const old = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    await old.addInitScript(() => {
      Object.defineProperty(navigator, "clipboard", { value: undefined, configurable: true });
    });
    const p2 = await old.newPage();
    p2.on("pageerror", (e) => problems.push("page error (fallback copy): " + e.message));
    await p2.goto(base + "/?fen=empty");
    await previewLoaded(p2, ["fen=empty"]);
    await p2.click("#copy-url");
    await p2.waitForFunction(() => document.querySelector("#copy-url .copy-text").textContent !== "Copy",
      null, { timeout: 5000 });
    check(await p2.textContent("#copy-url .copy-text") === "Copied",
      "without navigator.clipboard, Copy falls back to select() and execCommand");

    // The rarer controls come back from a URL too; at the largest size no 2x is offered.
    await p2.goto(base + "/?fen=start&size=2048&light=%23abc&dark=%23123456&check=auto&turn=1");
    await previewLoaded(p2, ["size=2048", "light=%23aabbcc", "turn=1"]);
    const rare = await p2.evaluate(() => ({
      custom: document.querySelector("#custom-colours").checked,
      light: document.querySelector("#light").value,
      dark: document.querySelector("#dark").value,
      turn: document.querySelector("#turn").checked,
      check: document.querySelector("#check").value,
      srcset: document.querySelector("#out-srcset").value,
    }));
    check(rare.custom && rare.light === "#aabbcc" && rare.dark === "#123456" && rare.turn && rare.check === "auto",
      "colours, check and the turn marker are restored from the URL");
    check(!rare.srcset.includes("srcset="), "at the largest size the high-density tag has no 2x");
    expect400 = true;
    p2.on("console", (m) => { if (m.type() === "error" && !/status of 400/.test(m.text())) problems.push("console: " + m.text()); });
    await p2.locator("#size").fill("5");
    await p2.waitForFunction(() => document.querySelector("#size-error").textContent.length > 0, null, { timeout: 10000 });
    check((await p2.textContent("#size-error")).startsWith("size "), "a bad size shows its sentence by #size");
    expect400 = false;
  } finally {
    await old.close();
  }

  // --- SVG ---------------------------------------------------------------------------
  await page.selectOption("#format", "svg");
  await previewLoaded(page, ["/diagram.svg?"]);
  const svgUrl = await page.inputValue("#out-url");
  check(svgUrl.startsWith(base + "/diagram.svg?") && !svgUrl.includes("format="), `SVG has its own URL: ${svgUrl.slice(base.length)}`);
  check((await bytes(svgUrl)).toString().includes("<svg"), "and answers SVG");
  check(page.url().includes("format=svg"), "the page URL keeps format=svg");
  // The alt text's language: /describe's words in the alt, and the SVG's title.
  await page.selectOption("#lang", "de");
  await previewLoaded(page, ["/diagram.svg?", "lang=de"]);
  await page.waitForFunction(() => document.querySelector("#preview").alt.startsWith("Weiß:"), null, { timeout: 10000 });
  const germanTag = await page.inputValue("#out-img");
  check(/ alt="Weiß: [^"]+Schwarz am Zug\."/.test(germanTag), "the <img> tag's alt is in the chosen language");
  check((await bytes(await page.inputValue("#out-url"))).toString().includes("<title id=\"title\">Weiß:"),
    "and so is the SVG's title");
  await page.selectOption("#lang", "en");
  await page.selectOption("#format", "png");
  await previewLoaded(page, ["/diagram.png?"]);
  check(!(await page.inputValue("#out-url")).includes("lang="), "a PNG's URL leaves lang out");

  // --- bad values: the service's sentence, by the control, and no broken image ----------
  expect400 = true;
  await page.locator("#fen").fill(BAD_FEN);
  await page.waitForFunction(() => document.querySelector("#fen-error").textContent.length > 0, null, { timeout: 10000 });
  const error = (await page.textContent("#fen-error")).trim();
  check(error.startsWith("fen ") && error.includes("not a valid FEN"), `a bad FEN shows the service's sentence: ${error}`);
  check(await page.isVisible("#fen-error"), "#fen-error is visible");
  check(await page.getAttribute("#fen", "aria-invalid") === "true", "#fen is marked invalid");
  check(await page.$eval("#preview", (img) => img.hidden), "the preview is hidden, not broken");
  check(await noBrokenImage(page), "no broken image on the page");
  check(await page.inputValue("#out-img") === "", "nothing to copy while the FEN is bad");
  await page.screenshot({ path: join(shots, "composer-error.png"), fullPage: false });

  await page.locator("#fen").fill("start");
  await page.locator("#arrows").fill("Xe2");
  await page.waitForFunction(() => document.querySelector("#arrows-error").textContent.length > 0, null, { timeout: 10000 });
  const arrowsError = (await page.textContent("#arrows-error")).trim();
  check(arrowsError.startsWith("arrows "), `a bad arrow shows its sentence by #arrows: ${arrowsError}`);
  check(await page.textContent("#fen-error") === "", "and the FEN's error is gone");
  await page.locator("#arrows").fill("");
  await previewLoaded(page, ["fen=start"]);
  check(await page.textContent("#arrows-error") === "", "fixing the value clears its error");

  // --- markers, move dots, legal moves and part of the board ---------------------------
  const plainWidth = await page.$eval("#preview", (img) => img.naturalWidth);
  await page.locator("#marks").fill("circle:Re4,label:a3:12");
  await page.locator("#dots").fill("d3");
  await page.locator("#legalMoves").fill("g1");
  await page.locator("#region").fill("a1:h4");
  await previewLoaded(page, ["marks=circle", "dots=d3", "legalMoves=g1", "region=a1"]);
  const part = await page.$eval("#preview", (img) => ({ width: img.naturalWidth, height: img.naturalHeight }));
  check(part.width === plainWidth && part.height < part.width * 0.6,
    `markers, dots, legal moves and region=a1:h4 reach the diagram: half a board (${part.width} × ${part.height})`);
  const boardImg = await page.getAttribute("#board-img", "src");
  check(boardImg.includes("marks=") && boardImg.includes("legalMoves=g1") && !boardImg.includes("region="),
    "the editor's board shows the markers on the whole board");
  await page.locator("#region").fill("a1:q4");
  await page.waitForFunction(() => document.querySelector("#region-error").textContent.length > 0, null, { timeout: 10000 });
  const regionError = (await page.textContent("#region-error")).trim();
  check(regionError.startsWith("region ") && regionError.includes("a1:q4"), `a bad region shows its sentence by #region: ${regionError}`);
  for (const id of ["#marks", "#dots", "#legalMoves", "#region"]) await page.locator(id).fill("");
  await page.locator("#fen").fill("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR");
  await page.selectOption("#dialect", "letters");
  await page.locator("#board-shape").fill("9x10");
  await previewLoaded(page, ["board=9x10", "dialect=letters"]);
  const nine = await page.$eval("#preview", (img) => ({ width: img.naturalWidth, height: img.naturalHeight }));
  check(nine.height > nine.width, `board=9x10 with dialect=letters draws a xiangqi-shaped board (${nine.width} × ${nine.height})`);
  check(await page.locator("#editor [role=gridcell]").count() === 90, "and the editor edits its 90 squares");
  await page.locator("#board-shape").fill("");
  await page.selectOption("#dialect", "standard");
  await page.locator("#fen").fill("start");
  await previewLoaded(page, ["fen=start"]);
  expect400 = false;

  // --- a game: PGN box, ply slider, the whole game as a GIF ----------------------------
  await page.click("button.example-game");
  await previewLoaded(page, ["pgn="]);
  check(await page.isVisible("#ply"), "a game shows the ply slider");
  check(await page.getAttribute("#ply", "max") === "33", "the slider spans the game's 33 plies");
  check(await page.inputValue("#ply") === "33", "and starts at its end");
  check((await page.textContent("#ply-now")).includes("17. Rd8#"), `the end is named: ${await page.textContent("#ply-now")}`);
  check(await page.$eval("#preview", (img) => img.alt.startsWith("After 17. Rd8#.")), "the alt text names the last move");
  check(await page.$eval("#fen", (el) => el.disabled), "the FEN box is off while a game is given");
  await page.locator("#ply").fill("20");
  await previewLoaded(page, ["pgn=", "ply=20"]);
  check((await page.textContent("#ply-now")).includes("10...cxb5"), `ply 20 is after 10...cxb5: ${await page.textContent("#ply-now")}`);
  const still = await page.inputValue("#out-url");
  check(still.startsWith(base + "/diagram.png?") && still.includes("pgn=") && still.includes("ply=20"), "the still's URL carries the game and the ply");
  check((await bytes(still)).subarray(0, 8).equals(PNG), "and answers a PNG");
  check(page.url().includes("ply=20"), "the page URL keeps the ply");
  await page.check("#whole");
  await previewLoaded(page, ["/game.gif?"]);
  const anim = await page.inputValue("#out-url");
  check(anim.startsWith(base + "/game.gif?") && anim.includes("pgn=") && !anim.includes("ply="), `the whole game is a GIF URL: ${anim.slice(base.length, base.length + 40)}…`);
  const gif = await bytes(anim);
  check(gif.subarray(0, 6).toString() === "GIF89a", `and answers an animated GIF (${gif.length} bytes)`);
  check(await page.$eval("#ply", (el) => el.disabled), "the slider is off for the whole game");
  check(page.url().includes("whole=1"), "the page URL remembers the animation");
  await page.reload();
  await previewLoaded(page, ["/game.gif?"]);
  check(await page.isChecked("#whole") && (await page.inputValue("#pgn")).includes("Rd8#"), "reloading restores the game and the animation");
  await page.evaluate(() => { document.activeElement?.blur(); window.scrollTo(0, 0); });
  await page.screenshot({ path: join(shots, "composer-game.png"), fullPage: true });
  expect400 = true;
  await page.uncheck("#whole");
  await page.locator("#pgn").fill("1. e4 e5 2. Ke3");
  await page.waitForFunction(() => document.querySelector("#pgn-error").textContent.length > 0, null, { timeout: 10000 });
  const pgnError = (await page.textContent("#pgn-error")).trim();
  check(pgnError === "pgn: 2. Ke3 is not a legal move for White after 1...e5", `an illegal move shows its sentence by the PGN box: ${pgnError}`);
  check(await noBrokenImage(page), "and no broken image");
  expect400 = false;
  await page.locator("#pgn").fill("");
  await page.dispatchEvent("#pgn", "input");
  await page.locator("#fen").fill("start");
  await previewLoaded(page, ["fen=start"]);
  check(!(await page.isVisible("#ply")), "emptying the PGN box hides the slider and brings the FEN back");

  // --- a page's bad <img>s: each error drawn as an image of the requested size ----------
  // (not a broken icon); the same URL keeps its text for fetch and for a tab.
  expect400 = true;
  const errorImages = [
    "/diagram?fen=bad&size=300",
    "/diagram.svg?fen=bad&size=200",
    "/game.gif?moves=e4%20e5%20Ke3&size=160",
  ];
  const bad = await context.newPage();
  bad.on("pageerror", (e) => problems.push("page error (bad images): " + e.message));
  await bad.setContent(`<!doctype html><body style="margin:0">${errorImages.map((u) =>
    `<img alt="" src="${base}${u.replace(/&/g, "&amp;")}">`).join("")}</body>`);
  await bad.waitForFunction(() => [...document.images].every((img) => img.complete), null, { timeout: 15000 });
  const shownSizes = await bad.$$eval("img", (imgs) => imgs.map((img) => [img.naturalWidth, img.naturalHeight]));
  errorImages.forEach((u, i) => {
    const size = Number(u.match(/size=(\d+)/)[1]);
    check(shownSizes[i][0] === size && shownSizes[i][1] === size,
      `a bad <img src="${u}"> shows the error as a ${size} × ${size} image (natural size ${shownSizes[i].join(" × ")})`);
  });
  await bad.screenshot({ path: join(shots, "error-images.png") });
  const asText = await fetch(base + errorImages[0]);
  check(asText.status === 400 && asText.headers.get("content-type").startsWith("text/plain")
    && (await asText.text()).startsWith("fen "), "fetch (Accept: */*) of the same URL gets the sentence as text");
  const tab = await bad.goto(base + errorImages[0]);
  check(tab.status() === 400 && (await tab.headerValue("content-type")).startsWith("text/plain")
    && (await bad.textContent("body")).startsWith("fen "), "and a tab opening it shows the sentence as text");
  await bad.close();
  expect400 = false;

  // --- phone and dark screenshots ------------------------------------------------------
  await page.locator("#fen").fill(SICILIAN);
  await page.locator("#lastMove").fill("g1f3");
  await page.setViewportSize({ width: 390, height: 844 });
  await previewLoaded(page, ["lastMove=g1f3"]);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  check(overflow <= 0, `no sideways scrolling on a phone (${overflow} px too wide)`);
  const columns = await page.evaluate(() => {
    const a = document.querySelector("#fen").getBoundingClientRect();
    const b = document.querySelector("#frame").getBoundingClientRect();
    return b.bottom <= a.top ? "one" : "two";
  });
  check(columns === "one", "one column on a phone, the diagram above the form");
  await page.evaluate(() => { document.activeElement?.blur(); window.scrollTo(0, 0); });
  await page.screenshot({ path: join(shots, "composer-phone.png"), fullPage: true });

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: join(shots, "composer-dark.png"), fullPage: false });
  noProblems("at the end");
  console.log(`${passed} passed, 0 failed`);
} catch (e) {
  console.error(e && e.message ? e.message : e);
  failed = true;
} finally {
  if (browser) await browser.close();
}
if (failed) {
  console.log(`${passed} passed, 1 failed`);
  console.log("browser test FAILED");
  process.exit(1);
}
console.log(`browser test passed; screenshots in ${shots}`);
