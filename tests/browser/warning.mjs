// The composer shows the service's Staunton-Warning: a diagram URL's query pasted onto the
// page keeps names no control takes, the service ignores them and says so in the header,
// and the page shows that sentence under the diagram (a polite status, not an alert).
//
//   STAUNTON_URL=http://127.0.0.1:8080 node tests/browser/warning.mjs
//
// Checks the header as fetch() sees it, the text under the preview, that the diagram still
// renders, that a clean URL shows no warning, and that no script error or CSP violation
// happens. Screenshot: $SHOTS/composer-warning.png. Exits non-zero on any failure.

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

const WANTED = "orientaton: did you mean orientation?";

async function previewLoaded(page, wanted) {
  await page.waitForFunction((wanted) => {
    const img = document.querySelector("#preview");
    return !img.hidden && img.complete && img.naturalWidth > 0
      && wanted.every((w) => img.currentSrc.includes(w));
  }, wanted, { timeout: 15000 });
}

let browser;
let failed = false;
try {
  const direct = await fetch(base + "/diagram.png?fen=start&orientaton=black");
  check(direct.ok, `a misspelt name still answers 200 (${direct.status})`);
  check(direct.headers.get("staunton-warning") === WANTED,
    `the answer's Staunton-Warning is "${direct.headers.get("staunton-warning")}"`);

  browser = await chromium.launch({
    executablePath,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  const problems = [];
  page.on("pageerror", (e) => problems.push("page error: " + e.message));
  page.on("console", (m) => {
    if (m.type() === "error" || m.type() === "warning") problems.push(`console ${m.type()}: ${m.text()}`);
  });

  await page.goto(base + "/?fen=start&orientaton=black");
  await previewLoaded(page, ["orientaton=black"]);
  await page.waitForFunction(() => document.querySelector("#warning").textContent !== "");
  const warning = await page.$eval("#warning", (el) => ({
    text: el.textContent,
    role: el.getAttribute("role"),
    shown: el.offsetParent !== null && el.getBoundingClientRect().height > 0,
  }));
  check(warning.text.includes(WANTED), `the page shows the warning: "${warning.text}"`);
  check(warning.shown, "the warning is visible");
  check(warning.role === "status", "as a polite status, for screen readers");
  const placed = await page.evaluate(() => {
    const frame = document.querySelector("#frame").getBoundingClientRect();
    const note = document.querySelector("#warning").getBoundingClientRect();
    return note.top >= frame.bottom && note.top - frame.bottom < 80;
  });
  check(placed, "right under the diagram");
  check(await page.$eval("#out-url", (el) => el.value.includes("orientaton=black")),
    "the copied URL is the one the warning is about");
  await page.screenshot({ path: join(shots, "composer-warning.png"), fullPage: false });

  await page.goto(base + "/?fen=start&orientation=black");
  await previewLoaded(page, ["orientation=black"]);
  check(await page.$eval("#warning", (el) => el.textContent === "" && el.offsetParent === null),
    "a URL the service reads whole shows no warning");
  check(problems.length === 0, "no script errors or CSP violations" + (problems.length ? ": " + problems.join("; ") : ""));
  console.log(`${passed} passed, 0 failed`);
} catch (e) {
  console.error(e && e.message ? e.message : e);
  failed = true;
} finally {
  if (browser) await browser.close();
}
if (failed) {
  console.log(`${passed} passed, 1 failed`);
  console.log("warning browser test FAILED");
  process.exit(1);
}
console.log(`warning browser test passed; screenshot in ${shots}/composer-warning.png`);
