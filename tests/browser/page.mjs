// One SVG for light and dark pages: `background=auto` follows the reader's colour scheme.
//
//   STAUNTON_URL=http://127.0.0.1:8080 node tests/browser/page.mjs
//
// Shows /diagram.svg?…&background=auto (as an <img> on a page and as a document of its own)
// in headless Chromium with prefers-color-scheme emulated light, then dark, and reads the
// screenshots' pixels: the margin is white on a light page and the dark page's colour on a
// dark one, the labels and caption are the page's ink in each, and the squares do not
// change. Screenshots: $SHOTS/background-auto-light.png and background-auto-dark.png.
// Exits non-zero on any failure.

import { chromium } from "playwright-core";
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { pixelsIn } from "./support.mjs";

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

const QUERY = "fen=r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR_w_KQkq_-_4_4"
  + "&size=400&background=auto&caption=" + encodeURIComponent("White to play and mate in one");
const SVG = base + "/diagram.svg?" + QUERY;
// The page's colours (render/spec/theme.rs): white with the theme's brown ink, or DARK_PAGE.
const PAGES = {
  light: { margin: [255, 255, 255], ink: [0x4a, 0x3d, 0x33] },
  dark: { margin: [0x1e, 0x1f, 0x22], ink: [0xe6, 0xe0, 0xd6] },
};
const LIGHT_SQUARE = [0xee, 0xdc, 0xbb];

const near = (a, b, tolerance = 6) => a.every((v, i) => Math.abs(v - b[i]) <= tolerance);

// The RGB pixels of a PNG screenshot, decoded by the browser itself.
async function pixels(browser, png) {
  const page = await browser.newPage();
  try {
    return await pixelsIn(page, "data:image/png;base64," + png.toString("base64"));
  } finally {
    await page.close();
  }
}

function at(image, x, y) {
  const i = (y * image.width + x) * 4;
  return image.data.slice(i, i + 3);
}

// How many pixels of the rectangle are within tolerance of `rgb`.
function count(image, [x0, y0, x1, y1], rgb) {
  let n = 0;
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) if (near(at(image, x, y), rgb, 10)) n++;
  return n;
}

async function shoot(browser, scheme, html) {
  const page = await browser.newPage({ viewport: { width: 400, height: 440 }, colorScheme: scheme });
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  try {
    if (html) {
      await page.setContent(`<!doctype html><meta name="color-scheme" content="light dark">`
        + `<style>body{margin:0;background:Canvas}</style><img id="d" src="${SVG}" alt="">`);
      await page.waitForFunction(() => document.querySelector("#d").complete
        && document.querySelector("#d").naturalWidth > 0, null, { timeout: 15000 });
    } else {
      const answer = await page.goto(SVG);
      check(answer.ok(), `the SVG answers 200 (${scheme})`);
    }
    const png = await page.screenshot({ clip: { x: 0, y: 0, width: 400, height: 429 } });
    check(errors.length === 0, `no script error (${scheme}${html ? ", <img>" : ""}): ${errors.join("; ")}`);
    return png;
  } finally {
    await page.close();
  }
}

// The composer offers the page's controls and a share card's meta tag for its diagram.
async function composer(browser) {
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  try {
    await page.goto(base + "/");
    await page.waitForFunction(() => {
      const img = document.querySelector("#preview");
      return !img.hidden && img.complete && img.naturalWidth > 0;
    }, null, { timeout: 15000 });
    await page.selectOption("#background", "dark");
    await page.fill("#caption", "White to play");
    await page.waitForFunction(() => document.querySelector("#preview").currentSrc.includes("background=dark")
      && document.querySelector("#preview").currentSrc.includes("caption=White+to+play")
      && document.querySelector("#preview").complete, null, { timeout: 15000 });
    const height = await page.evaluate(() => document.querySelector("#preview").naturalHeight);
    const width = await page.evaluate(() => document.querySelector("#preview").naturalWidth);
    check(height > width, `the composer's caption makes the image taller (${width}×${height})`);
    const meta = await page.inputValue("#out-card");
    const match = /content="([^"]+)"/.exec(meta);
    check(match && match[1].includes("/card.png?") && match[1].includes("title=White+to+play"),
      `the composer offers a share card: ${meta}`);
    const r = await fetch(match[1].replace(/&amp;/g, "&"));
    const png = Buffer.from(await r.arrayBuffer());
    check(r.ok && png.readUInt32BE(16) === 1200 && png.readUInt32BE(20) === 630,
      `the card's URL answers a 1200×630 PNG (${r.status})`);
  } finally {
    await page.close();
  }
}

let browser;
let failed = false;
try {
  browser = await chromium.launch({ executablePath, args: ["--no-sandbox"] });
  for (const scheme of ["light", "dark"]) {
    for (const html of [false, true]) {
      const png = await shoot(browser, scheme, html);
      const where = `${scheme}, ${html ? "an <img> on a page" : "the SVG as a document"}`;
      const image = await pixels(browser, png);
      const want = PAGES[scheme];
      check(near(at(image, 4, 4), want.margin), `${where}: the margin is ${want.margin} (got ${at(image, 4, 4)})`);
      check(near(at(image, 395, 425), want.margin), `${where}: the caption band is the page's colour`);
      // a1 is dark, b1 light: the light square b1 at 400 px is x 65–110, y 335–380.
      check(near(at(image, 88, 340), LIGHT_SQUARE), `${where}: the squares keep their colour`);
      const labels = count(image, [0, 20, 20, 380], want.ink);
      const caption = count(image, [40, 395, 360, 429], want.ink);
      check(labels > 20, `${where}: the rank labels are the page's ink (${labels} pixels)`);
      check(caption > 60, `${where}: the caption is the page's ink (${caption} pixels)`);
      if (!html) {
        const { writeFileSync } = await import("node:fs");
        writeFileSync(join(shots, `background-auto-${scheme}.png`), png);
      }
    }
  }
  await composer(browser);
  console.log(`# ${passed} checks passed; screenshots in ${shots}`);
} catch (error) {
  failed = true;
  console.error(error.message || error);
} finally {
  if (browser) await browser.close();
}
process.exit(failed ? 1 : 0);
