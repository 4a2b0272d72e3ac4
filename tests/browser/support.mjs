// What the browser tests share: where screenshots go, which Chromium runs, numbered checks
// that stop at the first failure, and Chromium started headless for a test.

import { chromium } from "playwright-core";
import { mkdirSync } from "node:fs";
import { resolve } from "node:path";

export const shots = resolve(process.env.SHOTS || "target/browser");
export const executablePath = process.env.CHROMIUM || "/usr/bin/chromium";
mkdirSync(shots, { recursive: true });

let count = 0;

/** Throw "FAILED: message" unless `condition`; else print "ok N - message". */
export function check(condition, message) {
  if (!condition) throw new Error("FAILED: " + message);
  count += 1;
  console.log("ok " + count + " - " + message);
}

/** How many checks have passed. */
export function passed() {
  return count;
}

/** Headless Chromium (Debian's, or $CHROMIUM), quiet: no sandbox, GPU or background traffic. */
export async function launch() {
  try {
    return await chromium.launch({
      executablePath,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    });
  } catch (e) {
    throw new Error(`FAILED: cannot start Chromium at ${executablePath} (set CHROMIUM): ${e.message}`);
  }
}

/** The RGBA pixels of the image at `src` (a URL `page` may load), decoded and drawn by the
 * browser itself: { width, height, data } with data an array of numbers. */
export async function pixelsIn(page, src) {
  return page.evaluate(async (src) => {
    const img = new Image();
    img.src = src;
    await img.decode();
    const canvas = document.createElement("canvas");
    canvas.width = img.naturalWidth;
    canvas.height = img.naturalHeight;
    const g = canvas.getContext("2d");
    g.drawImage(img, 0, 0);
    const data = Array.from(g.getImageData(0, 0, canvas.width, canvas.height).data);
    return { width: canvas.width, height: canvas.height, data };
  }, src);
}
