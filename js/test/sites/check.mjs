// Drives the three built sites (docusaurus/, vitepress/, starlight/: each a real site with
// staunton's Markdown plugin in its default, inline mode) in headless Chromium and checks
// that their diagrams are at home there. For each site:
//
//   1. errors:     no console error and no uncaught page error on a page with diagrams,
//                  loaded directly (React's hydration errors among them), nor while
//                  navigating;
//   2. navigation: page B's first diagram, reached by clicking page A's link (the router's
//                  client-side navigation), has the pixels it has when B is loaded
//                  directly, and its white king is drawn white;
//   3. phone:      at 360×740 the page does not scroll sideways and every diagram lies
//                  within the viewport's width;
//   4. dark:       with the site's own dark theme on, each diagram's margin (where the
//                  coordinate labels are) is dark and the labels light; with the light
//                  theme, the margin light and the labels dark;
//   5. shots:      screenshots of page A for the book, light and dark, phone and desktop,
//                  in $SHOTS (and the two pictures of check 2).
//
//   node js/test/sites/check.mjs [SITE…]     (after each site's build; default: all three)
//
// Environment: CHROMIUM (default /usr/bin/chromium), SHOTS (default target/browser/sites).
// Each site's build output is served by the small static server below, on a free loopback
// port. A failed check prints one line naming the site, the page, the check and what was
// measured; the exit status is 1 when any failed.
import { createServer } from "node:http";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { extname, join, normalize, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { inflateSync } from "node:zlib";

// `node --test test/` (js/'s `npm test`) runs every .mjs under a test/ folder, this one
// too: it is scripts/ci/sites-test.sh's, after the sites are built.
if (process.env.NODE_TEST_CONTEXT) {
  console.log("js/test/sites/check.mjs: run by scripts/ci/sites-test.sh, not by node --test");
  process.exit(0);
}
const { chromium } = await import("playwright-core");

const here = fileURLToPath(new URL(".", import.meta.url));
const repo = resolve(here, "../../..");

/** Each site: where its build is, its two pages, the link from A to B, its theme switch. */
const SITES = {
  docusaurus: {
    root: "docusaurus/build",
    a: "/",
    b: "/other",
    // Docusaurus 3.10's inline script: ?docusaurus-theme=, else localStorage "theme", sets
    // <html data-theme>; the navbar's toggle writes the same key. With future.v4 (as
    // create-docusaurus makes a site) the key is namespaced per site ("theme-699"): read
    // from the inline script itself.
    theme: (mode, html) => ({ key: /localStorage\.getItem\("(theme[^"]*)"\)/.exec(html)?.[1] ?? "theme", value: mode }),
    isDark: () => document.documentElement.dataset.theme === "dark",
  },
  vitepress: {
    root: "vitepress/.vitepress/dist",
    a: "/",
    b: "/other.html",
    // VitePress 1.6's inline script (#check-dark-mode): localStorage
    // "vitepress-theme-appearance" ("dark", "light" or "auto"), class "dark" on <html>.
    theme: (mode) => ({ key: "vitepress-theme-appearance", value: mode }),
    isDark: () => document.documentElement.classList.contains("dark"),
  },
  starlight: {
    root: "starlight/dist",
    a: "/",
    b: "/other/",
    // Starlight 0.37's ThemeProvider: localStorage "starlight-theme" ("dark", "light" or
    // "" for auto, which follows prefers-color-scheme), <html data-theme>.
    theme: (mode) => ({ key: "starlight-theme", value: mode }),
    isDark: () => document.documentElement.dataset.theme === "dark",
  },
};

/** The link on page A that leads to page B, and what B's first diagram shows. */
const LINK_TEXT = "the other page";
const B_FIRST = /^White: King e1, Queen d5\. Black: King e8, Rook a8\./;
const DIAGRAM = "figure.staunton-diagram > svg";
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 360, height: 740 };

const chromiumPath = process.env.CHROMIUM || "/usr/bin/chromium";
const shots = resolve(process.env.SHOTS || join(repo, "target", "browser", "sites"));
mkdirSync(shots, { recursive: true });

const failures = [];
function report(site, page, check, ok, detail) {
  const line = `${site} ${page} [${check}]: ${detail}`;
  if (ok) {
    console.log(`   ok    ${line}`);
  } else {
    console.log(`   FAIL  ${line}`);
    failures.push(line);
  }
}

// ---- a static server: the build folder as the site's host would serve it ---------------

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".woff": "font/woff",
  ".xml": "application/xml",
  ".txt": "text/plain; charset=utf-8",
  ".wasm": "application/wasm",
  ".webmanifest": "application/manifest+json",
};

/** Serves `root` on a free loopback port: /x, /x.html, /x/index.html, then 404.html. */
function serve(root) {
  const file = (path) => {
    try {
      return statSync(path).isFile() ? path : null;
    } catch {
      return null;
    }
  };
  const server = createServer((request, response) => {
    let path;
    try {
      path = decodeURIComponent(new URL(request.url, "http://x").pathname);
    } catch {
      response.writeHead(400).end();
      return;
    }
    const base = normalize(join(root, path));
    if (base !== root && !base.startsWith(root + sep)) {
      response.writeHead(403).end();
      return;
    }
    const found = path.endsWith("/")
      ? file(join(base, "index.html"))
      : file(base) ?? file(`${base}.html`) ?? file(join(base, "index.html"));
    if (!found && /^\/favicon\.(ico|svg)$/.test(path)) {
      // The sites have no icon of their own (Starlight links /favicon.svg, Chromium asks
      // for /favicon.ico): a missing icon is the site's fault, not a diagram's.
      response.writeHead(200, { "content-type": "image/svg+xml" });
      response.end('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><rect width="1" height="1"/></svg>');
      return;
    }
    const body = found ?? file(join(root, "404.html"));
    const type = TYPES[extname(body ?? "")] ?? "application/octet-stream";
    response.writeHead(found ? 200 : 404, { "content-type": type, "cache-control": "no-store" });
    response.end(body ? readFileSync(body) : "not found");
  });
  return new Promise((done) => server.listen(0, "127.0.0.1", () => done(server)));
}

// ---- pixels: Chromium's screenshots are 8-bit RGB(A) PNGs, decoded here ------------------

/** Decodes an 8-bit, non-interlaced truecolour (2) or RGBA (6) PNG to RGBA. */
function decodePng(buffer) {
  let offset = 8;
  let width = 0;
  let height = 0;
  let type = 0;
  const idat = [];
  while (offset < buffer.length) {
    const length = buffer.readUInt32BE(offset);
    const kind = buffer.toString("latin1", offset + 4, offset + 8);
    const data = buffer.subarray(offset + 8, offset + 8 + length);
    if (kind === "IHDR") {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      type = data[9];
      if (data[8] !== 8 || (type !== 2 && type !== 6) || data[12] !== 0) {
        throw new Error(`a PNG this decoder does not read (depth ${data[8]}, type ${type}, interlace ${data[12]})`);
      }
    } else if (kind === "IDAT") {
      idat.push(data);
    }
    offset += 12 + length;
  }
  const channels = type === 6 ? 4 : 3;
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const out = Buffer.alloc(width * height * 4);
  let previous = Buffer.alloc(stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = Buffer.from(raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1)));
    for (let i = 0; i < stride; i++) {
      const left = i >= channels ? line[i - channels] : 0;
      const up = previous[i];
      const corner = i >= channels ? previous[i - channels] : 0;
      let add = 0;
      if (filter === 1) add = left;
      else if (filter === 2) add = up;
      else if (filter === 3) add = (left + up) >> 1;
      else if (filter === 4) {
        const p = left + up - corner;
        const pa = Math.abs(p - left);
        const pb = Math.abs(p - up);
        const pc = Math.abs(p - corner);
        add = pa <= pb && pa <= pc ? left : pb <= pc ? up : corner;
      }
      line[i] = (line[i] + add) & 255;
    }
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 4;
      out[o] = line[x * channels];
      out[o + 1] = line[x * channels + 1];
      out[o + 2] = line[x * channels + 2];
      out[o + 3] = channels === 4 ? line[x * channels + 3] : 255;
    }
    previous = line;
  }
  return { width, height, data: out };
}

const pixel = (image, x, y) => {
  const o = (y * image.width + x) * 4;
  return [image.data[o], image.data[o + 1], image.data[o + 2]];
};
/** Relative luminance, 0 (black) to 1 (white), of an sRGB colour. */
function luminance([r, g, b]) {
  const lin = (c) => (c / 255 <= 0.04045 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4);
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}
const hex = (rgb) => `#${rgb.map((c) => c.toString(16).padStart(2, "0")).join("")}`;

/** How two pictures differ: the count of pixels off by more than 32 in a channel, the largest. */
function compare(one, two) {
  if (one.width !== two.width || one.height !== two.height) {
    return { sizes: `${one.width}×${one.height} against ${two.width}×${two.height}` };
  }
  let count = 0;
  let largest = 0;
  for (let i = 0; i < one.data.length; i += 4) {
    const d = Math.max(...[0, 1, 2].map((c) => Math.abs(one.data[i + c] - two.data[i + c])));
    if (d > 32) count += 1;
    largest = Math.max(largest, d);
  }
  return { count, largest, total: one.width * one.height };
}

/**
 * The margin of a diagram's picture (the band between the svg's edge and the board, 5% of
 * its side, where the coordinate labels are): its background (the median luminance of the
 * band) and its labels (the pixel of the band that stands out most from the background).
 */
function margin(image) {
  const band = Math.round(image.width * 0.05);
  const values = [];
  const inBand = (x, y) => x < band - 2 || y < band - 2 || x >= image.width - band + 2 || y >= image.height - band + 2;
  for (let y = 1; y < image.height - 1; y++) {
    for (let x = 1; x < image.width - 1; x++) {
      if (inBand(x, y)) values.push({ rgb: pixel(image, x, y), x, y });
    }
  }
  for (const v of values) v.l = luminance(v.rgb);
  const sorted = [...values].sort((p, q) => p.l - q.l);
  const background = sorted[Math.floor(sorted.length / 2)];
  let label = background;
  for (const v of values) if (Math.abs(v.l - background.l) > Math.abs(label.l - background.l)) label = v;
  const labelled = values.filter((v) => Math.abs(v.l - background.l) > 0.25).length;
  return { background, label, labelled };
}

/** The share of near-white pixels (each channel ≥ 235) in a region of a picture. */
function whiteShare(image, { x, y, width, height }) {
  let white = 0;
  let all = 0;
  for (let j = Math.max(0, Math.round(y)); j < Math.min(image.height, Math.round(y + height)); j++) {
    for (let i = Math.max(0, Math.round(x)); i < Math.min(image.width, Math.round(x + width)); i++) {
      const [r, g, b] = pixel(image, i, j);
      all += 1;
      if (Math.min(r, g, b) >= 235) white += 1;
    }
  }
  return all ? white / all : 0;
}

// ---- the browser --------------------------------------------------------------------------

/** A fresh context (no storage shared) with the site's theme set before any script runs. */
async function open(browser, site, { viewport = DESKTOP, mode = "light" } = {}) {
  const context = await browser.newContext({ viewport, colorScheme: mode, deviceScaleFactor: 1 });
  const { key, value } = site.theme(mode, site.html);
  await context.addInitScript(([k, v]) => {
    try {
      localStorage.setItem(k, v);
    } catch {
      // about:blank has no storage
    }
  }, [key, value]);
  const page = await context.newPage();
  const errors = [];
  page.on("console", (message) => {
    if (message.type() !== "error") return;
    const at = message.location()?.url ? ` (at ${message.location().url})` : "";
    errors.push(`console error: ${message.text().split("\n")[0].slice(0, 300)}${at}`);
  });
  page.on("pageerror", (error) => errors.push(`page error: ${String(error.message ?? error).split("\n")[0].slice(0, 300)}`));
  // A console error "Failed to load resource" does not say which: the answer does.
  page.on("response", (response) => {
    if (response.status() >= 400) errors.push(`HTTP ${response.status()} for ${new URL(response.url()).pathname}`);
  });
  return { context, page, errors };
}

/** Waits until the page is loaded, idle and hydrated (a moment for late errors). */
async function settle(page) {
  await page.waitForLoadState("networkidle");
  await page.evaluate(() => document.fonts.ready.then(() => new Promise((r) => requestAnimationFrame(() => r()))));
  await page.waitForTimeout(400);
}

/** The white king's box in the picture of `svg` (a <use> of a symbol named …wK), or null. */
function whiteKingBox(svg) {
  const box = svg.getBoundingClientRect();
  for (const use of svg.querySelectorAll("use")) {
    const href = use.getAttribute("href") ?? use.getAttributeNS("http://www.w3.org/1999/xlink", "href") ?? "";
    if (/(^#|-)wK$/.test(href)) {
      const r = use.getBoundingClientRect();
      if (r.width > 0) return { x: r.x - box.x, y: r.y - box.y, width: r.width, height: r.height };
    }
  }
  return null;
}

async function checkSite(browser, name) {
  const site = SITES[name];
  const root = resolve(here, site.root);
  if (!existsSync(join(root, "index.html"))) {
    report(name, "-", "build", false, `no ${join(site.root, "index.html")}: build the site first`);
    return;
  }
  site.html = readFileSync(join(root, "index.html"), "utf8");
  const server = await serve(root);
  const origin = `http://127.0.0.1:${server.address().port}`;
  console.log(`== ${name}: ${site.root} on ${origin}`);
  try {
    // 1. errors, on each page loaded directly (light, desktop).
    for (const path of [site.a, site.b]) {
      const { context, page, errors } = await open(browser, site);
      await page.goto(origin + path);
      await settle(page);
      const count = await page.locator(DIAGRAM).count();
      report(name, path, "diagrams", count > 0, `${count} inline diagram(s) in the page`);
      report(name, path, "errors", errors.length === 0, errors.length === 0 ? "no console or page error" : errors.join(" | "));
      await context.close();
    }

    // 2. navigation: A, click to B, B's first diagram; then B directly.
    const pictures = {};
    for (const how of ["navigated", "direct"]) {
      const { context, page, errors } = await open(browser, site);
      if (how === "navigated") {
        await page.goto(origin + site.a);
        await settle(page);
        const before = await page.evaluate(() => {
          window.__stauntonSameDocument = true;
          return location.pathname;
        });
        await page.getByRole("link", { name: LINK_TEXT }).first().click();
        await page.waitForURL((url) => url.pathname !== before);
        await page.waitForFunction(
          ([selector, source]) => new RegExp(source).test(document.querySelector(selector)?.getAttribute("aria-label") ?? ""),
          [DIAGRAM, B_FIRST.source],
        );
        await settle(page);
        const client = await page.evaluate(() => window.__stauntonSameDocument === true);
        const kind = client ? "client-side navigation (the same document)" : "a full page load (the site has no client-side router)";
        report(name, `${site.a} → ${site.b}`, "navigation", true, kind);
        if (errors.length) report(name, `${site.a} → ${site.b}`, "errors", false, errors.join(" | "));
      } else {
        await page.goto(origin + site.b);
        await settle(page);
      }
      await page.mouse.move(0, 0);
      const svg = page.locator(DIAGRAM).first();
      await svg.scrollIntoViewIfNeeded();
      const buffer = await svg.screenshot({ animations: "disabled" });
      writeFileSync(join(shots, `${name}-b-first-diagram-${how}.png`), buffer);
      const image = decodePng(buffer);
      const king = await svg.evaluate(whiteKingBox);
      // Without a <use> to find it by, the king's square by geometry: e1, the board inside a
      // margin of 5% of the side, eight squares.
      const side = image.width;
      const square = (side * 0.9) / 8;
      const box = king ?? { x: side * 0.05 + 4 * square, y: side * 0.05 + 7 * square, width: square, height: square };
      const share = whiteShare(image, box);
      report(
        name,
        `${site.b} (${how})`,
        "white pieces",
        share >= 0.1,
        `the white king's square (e1, ${Math.round(box.width)}×${Math.round(box.height)} px at ${Math.round(box.x)},${Math.round(box.y)}) is ${(share * 100).toFixed(1)}% near-white pixels (at least 10% wanted)`,
      );
      pictures[how] = image;
      await context.close();
    }
    const diff = compare(pictures.navigated, pictures.direct);
    if (diff.sizes) {
      report(name, site.b, "navigation", false, `the first diagram after clicking from ${site.a} is ${diff.sizes} px loaded directly`);
    } else {
      report(
        name,
        site.b,
        "navigation",
        diff.count <= diff.total * 0.002,
        `the first diagram after clicking from ${site.a} against loaded directly: ${diff.count} of ${diff.total} pixels differ by more than 32 (largest difference ${diff.largest}; pictures ${name}-b-first-diagram-*.png)`,
      );
    }

    // 3. phone: no sideways scrolling, every diagram within the width.
    for (const path of [site.a, site.b]) {
      const { context, page } = await open(browser, site, { viewport: PHONE });
      await page.goto(origin + path);
      await settle(page);
      const measured = await page.evaluate((selector) => ({
        scrollWidth: document.documentElement.scrollWidth,
        boxes: [...document.querySelectorAll(selector)].map((svg) => {
          const r = svg.getBoundingClientRect();
          return { left: r.left + scrollX, right: r.right + scrollX, width: r.width };
        }),
      }), DIAGRAM);
      const { scrollWidth } = measured;
      report(name, path, "phone 360", scrollWidth <= PHONE.width, `document.documentElement.scrollWidth is ${scrollWidth} (at most ${PHONE.width})`);
      measured.boxes.forEach((b, i) => {
        const inside = b.left >= 0 && b.right <= PHONE.width + 0.5;
        const span = `x ${b.left.toFixed(1)} to ${b.right.toFixed(1)} (${b.width.toFixed(1)} px wide`;
        report(name, path, "phone 360", inside, `diagram ${i + 1} spans ${span}; the viewport is 0 to ${PHONE.width})`);
      });
      await context.close();
    }

    // 4. the theme: each diagram of page A, dark and light.
    for (const mode of ["dark", "light"]) {
      const { context, page } = await open(browser, site, { mode });
      await page.goto(origin + site.a);
      await settle(page);
      const dark = await page.evaluate(site.isDark);
      const on = dark === (mode === "dark");
      const tag = await page.evaluate(() => document.documentElement.outerHTML.replace(/>[^]*$/, ">"));
      report(name, site.a, `${mode} theme`, on, `the site's ${mode} theme is ${on ? "on" : "not on"} (${tag})`);
      const svgs = page.locator(DIAGRAM);
      const count = await svgs.count();
      for (let i = 0; i < count; i++) {
        const svg = svgs.nth(i);
        await svg.scrollIntoViewIfNeeded();
        const image = decodePng(await svg.screenshot({ animations: "disabled" }));
        const { background, label, labelled } = margin(image);
        const bg = background.l;
        const fg = label.l;
        const where =
          `diagram ${i + 1}, margin ${hex(background.rgb)} (luminance ${bg.toFixed(2)}), ` +
          `labels' strongest pixel ${hex(label.rgb)} at ${label.x},${label.y} (luminance ${fg.toFixed(2)}), ${labelled} label pixels`;
        if (mode === "dark") {
          report(name, site.a, "dark theme", bg <= 0.25, `${where}: the margin must be dark (luminance at most 0.25)`);
          report(name, site.a, "dark theme", labelled > 0 && fg >= 0.45, `${where}: the labels must be light (luminance at least 0.45)`);
        } else {
          report(name, site.a, "light theme", bg >= 0.6 && labelled > 0 && fg <= 0.3, `${where}: a light margin (at least 0.6) with dark labels (at most 0.3)`);
        }
      }
      await context.close();
    }

    // 5. screenshots for the book: page A, light and dark, phone and desktop.
    for (const mode of ["light", "dark"]) {
      for (const [device, viewport] of [["phone", PHONE], ["desktop", DESKTOP]]) {
        const { context, page } = await open(browser, site, { viewport, mode });
        await page.goto(origin + site.a);
        await settle(page);
        const file = join(shots, `${name}-${mode}-${device}.png`);
        await page.screenshot({ path: file, animations: "disabled" });
        await context.close();
      }
    }
    console.log(`   shots ${name}-{light,dark}-{phone,desktop}.png in ${shots}`);
  } finally {
    await new Promise((done) => server.close(done));
  }
}

const wanted = process.argv.slice(2);
for (const name of wanted) {
  if (!SITES[name]) {
    console.error(`check.mjs: no site ${name}; the sites are ${Object.keys(SITES).join(", ")}`);
    process.exit(2);
  }
}
const browser = await chromium.launch({ executablePath: chromiumPath, args: ["--no-sandbox", "--font-render-hinting=none"] });
try {
  for (const name of wanted.length ? wanted : Object.keys(SITES)) {
    try {
      await checkSite(browser, name);
    } catch (error) {
      report(name, "-", "harness", false, `the check could not run: ${error.stack ?? error}`);
    }
  }
} finally {
  await browser.close();
}
if (failures.length) {
  console.log(`\n${failures.length} check(s) failed:`);
  for (const line of failures) console.log(`  ${line}`);
  process.exit(1);
}
console.log("\nevery site's checks passed");
