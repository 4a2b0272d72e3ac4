// End-to-end test of the front page in headless Chromium (Debian's package).
//
//   STAUNTON_URL=http://127.0.0.1:8080 node tests/browser/e2e.mjs
//
// Opens /, types a FEN, changes two options, waits for the preview, checks that the image
// loaded and that the copied <img> URL answers the same bytes; reloads the page's own URL
// and checks the state came back; types a bad FEN and checks the service's sentence shows.
// Screenshots go to $SHOTS (default target/browser). Exits non-zero on any failure.

import { chromium } from "playwright-core";
import { mkdirSync } from "node:fs";
import { join } from "node:path";

const base = process.env.STAUNTON_URL || "http://127.0.0.1:8080";
const shots = process.env.SHOTS || "target/browser";
mkdirSync(shots, { recursive: true });

function check(condition, message) {
  if (!condition) throw new Error("FAILED: " + message);
  console.log("ok - " + message);
}

async function bytes(url) {
  const r = await fetch(url);
  check(r.ok, `GET ${url} answers ${r.status}`);
  return Buffer.from(await r.arrayBuffer());
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
let failed = false;
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const problems = [];
  page.on("pageerror", (e) => problems.push("page error: " + e.message));
  // The bad FEN's 400 is expected (the page fetches it to show the sentence); nothing else.
  page.on("console", (m) => {
    if (m.type() === "error" && !m.text().includes("status of 400")) problems.push("console: " + m.text());
  });
  page.on("request", (r) => { if (!r.url().startsWith(base)) problems.push("external request: " + r.url()); });

  await page.goto(base + "/");
  await page.waitForFunction(() => document.querySelector("#theme").options.length > 0);
  check(await page.title() === "Staunton — chess diagrams", "the page has its title");

  const fen = "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2";
  await page.fill("#fen", fen);
  await page.selectOption("#theme", "blue");
  await page.selectOption("#orientation", "black");
  await page.fill("#arrows", "Gc5d4");
  await page.waitForFunction(() => {
    const img = document.querySelector("#preview");
    return !img.hidden && img.complete && img.naturalWidth > 0 && img.src.includes("theme=blue")
      && img.src.includes("arrows=");
  }, null, { timeout: 10000 });
  const preview = await page.$eval("#preview", (img) => ({
    src: img.currentSrc, width: img.naturalWidth, alt: img.alt,
  }));
  check(preview.width > 0, `the preview loaded (${preview.width} px wide)`);
  check(preview.alt.startsWith("White:") && preview.alt.includes("Black to move."),
    "the preview's alt is the position in words");

  const tag = await page.inputValue("#out-img");
  const src = tag.match(/src="([^"]+)"/)[1].replace(/&amp;/g, "&");
  check(/width="\d+" height="\d+"/.test(tag) && tag.includes('alt="White:'),
    "the <img> tag has width, height and alt");
  const copied = await bytes(src);
  const shown = await bytes(preview.src);
  check(copied.equals(shown), "the copied <img> URL returns the preview's bytes");
  check(copied.subarray(1, 4).toString() === "PNG", "and they are a PNG");
  check((await page.inputValue("#out-srcset")).includes(" 2x\""), "a srcset variant is offered");
  check((await page.inputValue("#out-md")).startsWith("![White:"), "a Markdown image is offered");
  await page.screenshot({ path: join(shots, "composer.png"), fullPage: true });

  const own = page.url();
  check(own.includes("theme=blue") && own.includes("orientation=black"), "the page URL holds the state");
  const again = await browser.newPage();
  await again.goto(own);
  await again.waitForFunction(() => document.querySelector("#theme").value === "blue");
  check(await again.inputValue("#fen") === fen && await again.inputValue("#orientation") === "black",
    "loading the page URL restores the controls");
  await again.close();

  await page.keyboard.press("Tab");
  await page.focus("#fen");
  await page.keyboard.press("Tab");
  const next = await page.evaluate(() => document.activeElement.tagName);
  check(next === "BUTTON", "Tab moves from the FEN field on to the next control");

  await page.fill("#fen", "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1");
  await page.waitForFunction(() => document.querySelector("#fen-error").textContent.length > 0,
    null, { timeout: 10000 });
  const error = await page.textContent("#fen-error");
  check(error.startsWith("fen ") && error.includes("not a valid FEN"),
    `a bad FEN shows the service's sentence: ${error}`);
  check(await page.$eval("#preview", (img) => img.hidden), "and no broken image");

  await page.setViewportSize({ width: 390, height: 844 });
  await page.fill("#fen", "start");
  await page.waitForFunction(() => !document.querySelector("#preview").hidden);
  await page.screenshot({ path: join(shots, "composer-phone.png"), fullPage: true });
  check(problems.length === 0, "no script errors, CSP violations or external requests: "
    + problems.join("; "));
} catch (e) {
  console.error(e.message);
  failed = true;
} finally {
  await browser.close();
}
console.log(failed ? "browser test FAILED" : `browser test passed; screenshots in ${shots}`);
process.exit(failed ? 1 : 0);
