// Errors a page can show, in Firefox's engine (Debian's firefox-esr, headless): a page of
// bad <img>s gets each error drawn as an image of the requested size, not a broken image.
//
//   STAUNTON_URL=http://127.0.0.1:8080 FIREFOX=/usr/bin/firefox-esr node tests/browser/firefox.mjs
//
// Playwright drives only its own build of Firefox, so this runs Debian's browser as a user
// would: `firefox-esr --headless --screenshot` of a local page whose script, once the page
// has loaded, paints a square green when every <img> is complete with the requested natural
// width (magenta otherwise). The screenshot is read back here: the square must be green and
// each image's place must show the card (its red frame, its light ground), not an icon.
// The screenshot goes to $SHOTS/firefox-errors.png. Exits non-zero on any failure.
//
// Raster formats only: Firefox (ESR 153 here) draws a PNG, GIF or WebP answered with a 4xx
// but not an SVG, which it shows as a broken image whatever the status's body (the same SVG
// card served at 200 is drawn, at 400 it is not: an SVG image is a document, and Firefox
// refuses a document whose load failed). Chromium draws all four (tests/browser/e2e.mjs).

import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync, copyFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { inflateSync } from "node:zlib";

const base = (process.env.STAUNTON_URL || "http://127.0.0.1:8080").replace(/\/+$/, "");
const firefox = process.env.FIREFOX || "/usr/bin/firefox-esr";
const shots = resolve(process.env.SHOTS || "target/browser");
mkdirSync(shots, { recursive: true });

let passed = 0;
function check(condition, message) {
  if (!condition) throw new Error("FAILED: " + message);
  passed += 1;
  console.log("ok " + passed + " - " + message);
}

// Each bad image: its URL, where the page puts it, and the size it asks for.
const IMAGES = [
  { src: "/diagram?fen=bad&size=300", x: 0, y: 0, size: 300 },
  { src: "/diagram.webp?fen=bad&size=200", x: 320, y: 0, size: 200 },
  { src: "/game.gif?moves=e4%20e5%20Ke3&size=160", x: 540, y: 0, size: 160 },
];
const VERDICT = { x: 0, y: 340, w: 120, h: 40 };

const page = `<!doctype html>
<html><head><meta charset="utf-8"><title>bad images</title></head>
<body style="margin:0;background:#fff">
${IMAGES.map((i, n) => `<img id="i${n}" alt="" src="${base}${i.src.replace(/&/g, "&amp;")}" data-size="${i.size}"
  style="position:absolute;left:${i.x}px;top:${i.y}px;display:block">`).join("\n")}
<div id="verdict" style="position:absolute;left:${VERDICT.x}px;top:${VERDICT.y}px;width:${VERDICT.w}px;height:${VERDICT.h}px;background:#888"></div>
<script>
window.addEventListener("load", () => {
  const ok = [...document.images].every((img) => img.complete && img.naturalWidth === Number(img.dataset.size));
  document.getElementById("verdict").style.background = ok ? "#00ff00" : "#ff00ff";
});
</script>
</body></html>`;

// A PNG (8-bit RGB or RGBA, not interlaced: what Firefox writes) as a pixel reader.
function readPng(bytes) {
  let at = 8;
  let width = 0, height = 0, channels = 0;
  const data = [];
  while (at < bytes.length) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString("ascii", at + 4, at + 8);
    const body = bytes.subarray(at + 8, at + 8 + length);
    if (type === "IHDR") {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      if (body[8] !== 8 || body[12] !== 0 || (body[9] !== 2 && body[9] !== 6)) {
        throw new Error(`FAILED: the screenshot is a PNG this reader does not know (depth ${body[8]}, colour ${body[9]})`);
      }
      channels = body[9] === 6 ? 4 : 3;
    } else if (type === "IDAT") {
      data.push(body);
    }
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const pixels = Buffer.alloc(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const row = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let i = 0; i < stride; i++) {
      const a = i >= channels ? pixels[y * stride + i - channels] : 0;
      const b = y > 0 ? pixels[(y - 1) * stride + i] : 0;
      const c = y > 0 && i >= channels ? pixels[(y - 1) * stride + i - channels] : 0;
      let v = row[i];
      if (filter === 1) v += a;
      else if (filter === 2) v += b;
      else if (filter === 3) v += (a + b) >> 1;
      else if (filter === 4) {
        const p = a + b - c;
        const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)];
        v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      pixels[y * stride + i] = v & 255;
    }
  }
  return { width, height, at: (x, y) => [...pixels.subarray(y * stride + x * channels, y * stride + x * channels + 3)] };
}

const work = mkdtempSync(join(tmpdir(), "staunton-firefox-"));
try {
  const html = join(work, "bad-images.html");
  const shot = join(work, "shot.png");
  const profile = join(work, "profile");
  mkdirSync(profile);
  writeFileSync(html, page);
  try {
    execFileSync(firefox, ["--headless", "--no-remote", "--profile", profile, "--window-size=800,600",
      "--screenshot", shot, "file://" + html], { stdio: "pipe", timeout: 120000, env: { ...process.env, HOME: work } });
  } catch (e) {
    throw new Error(`FAILED: ${firefox} --headless --screenshot did not finish: ${e.message}`);
  }
  copyFileSync(shot, join(shots, "firefox-errors.png"));
  const png = readPng(readFileSync(shot));
  check(png.width >= 700 && png.height >= 400, `Firefox wrote a ${png.width} × ${png.height} screenshot`);

  const [r, g, b] = png.at(VERDICT.x + VERDICT.w / 2, VERDICT.y + VERDICT.h / 2);
  check(g > 200 && r < 60 && b < 60,
    `every bad <img> is complete with the requested natural width (${IMAGES.map((i) => i.size).join(", ")} px)`
    + ` in Firefox's engine (verdict pixel ${r},${g},${b}; magenta means not)`);
  for (const img of IMAGES) {
    const [er, eg, eb] = png.at(img.x, img.y + img.size / 2);
    check(er > 150 && eg < 80 && eb < 80, `${img.src}: the card's red frame is drawn at its left edge (${er},${eg},${eb})`);
    let light = 0;
    for (let y = img.y; y < img.y + img.size; y++) {
      for (let x = img.x; x < img.x + img.size; x++) {
        if (png.at(x, y).every((c) => c > 220)) light += 1;
      }
    }
    check(light * 2 > img.size * img.size, `${img.src}: and its light ground fills most of its ${img.size} × ${img.size} px`);
  }
  console.log(`${passed} passed, 0 failed; screenshot: ${join(shots, "firefox-errors.png")}`);
} catch (e) {
  console.error(e && e.message ? e.message : e);
  console.log(`${passed} passed, 1 failed`);
  process.exitCode = 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
