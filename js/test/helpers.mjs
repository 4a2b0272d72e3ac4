// What the tests share: the recorded render cases and hashes of the crate
// (tests/fixtures/), and FNV-1a 64, the hash they were recorded with (src/hash.rs).
import { readFileSync } from "node:fs";

const fixtures = new URL("../../tests/fixtures/", import.meta.url);

/** FNV-1a 64 of `bytes` (a Uint8Array, or a string as UTF-8), as 16 hex digits. */
export function fnv1a(bytes) {
  if (typeof bytes === "string") bytes = new TextEncoder().encode(bytes);
  let hash = 0xcbf29ce484222325n;
  for (const byte of bytes) hash = ((hash ^ BigInt(byte)) * 0x100000001b3n) & 0xffffffffffffffffn;
  return hash.toString(16).padStart(16, "0");
}

/** The render cases: `{ name, options }`, the query's pairs as string options. */
export function cases() {
  return readFileSync(new URL("render-cases.txt", fixtures), "utf8")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith("#"))
    .map((line) => {
      const space = line.indexOf(" ");
      const options = Object.fromEntries(new URLSearchParams(line.slice(space + 1)));
      return { name: line.slice(0, space), options };
    });
}

/** The recorded hashes: "NAME EXT" → hash. */
export function hashes() {
  const lines = readFileSync(new URL("render-hashes.txt", fixtures), "utf8").trim().split("\n");
  return new Map(lines.map((line) => {
    const [name, ext, hash] = line.split(" ");
    return [`${name} ${ext}`, hash];
  }));
}

/** The API function of each format's extension. */
export const FUNCTIONS = { png: "png", svg: "svg", pdf: "pdf", webp: "webp", gif: "gif", txt: "text" };

/**
 * WebP files that encode the same pixels in other bytes on wasm32. image-webp limits its
 * Huffman codes to 15 bits by sorting symbols by frequency with an unstable sort: symbols
 * of equal frequency may come out in another order when the sorted tuple's size differs
 * (usize is 4 bytes on wasm32, 8 on x86_64), so they get other, equally long codes. The
 * files have the same length (the number here, the native file's) and decode to the same
 * pixels: scripts/ci/js-test.sh decodes both with Debian's dwebp and compares them
 * (different-webp.mjs writes the module's).
 */
export const DIFFERENT = new Map([
  ["theme-print webp", 45422],
  ["theme-print-black webp", 54790],
]);
