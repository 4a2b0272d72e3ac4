// Moves a WebAssembly module's data segments (its constants: the two DejaVu fonts, the
// chess move tables, the piece sets) into one custom section (zlib), `staunton.data`,
// leaving each segment empty. The glue (lib/core.js) inflates them and writes them into
// memory at their addresses when it instantiates the module: the same bytes in memory as
// before, in about a third of the file. Segments must be active, in memory 0, at an
// `i32.const` address: what rustc and wasm-ld write for wasm32-unknown-unknown.
//
//   node scripts/pack.mjs IN.wasm OUT.wasm
import { readFileSync, writeFileSync } from "node:fs";
import { deflateSync } from "node:zlib";

export const SECTION = "staunton.data";

function leb(bytes, at) {
  let value = 0;
  let shift = 0;
  for (;;) {
    const byte = bytes[at++];
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
    if (byte < 0x80) return [value, at];
  }
}

function sleb32(bytes, at) {
  let value = 0;
  let shift = 0;
  let byte;
  do {
    byte = bytes[at++];
    value |= (byte & 0x7f) << shift;
    shift += 7;
  } while (byte >= 0x80);
  if (shift < 32 && byte & 0x40) value |= -1 << shift;
  return [value, at];
}

function uleb(value) {
  const out = [];
  do {
    let byte = value & 0x7f;
    value = Math.floor(value / 128);
    if (value) byte |= 0x80;
    out.push(byte);
  } while (value);
  return Uint8Array.from(out);
}

function section(id, body) {
  return Buffer.concat([Uint8Array.of(id), uleb(body.length), body]);
}

/** The data section's segments emptied, and their addresses and bytes. */
function emptied(body) {
  let [count, at] = leb(body, 0);
  const segments = [];
  const parts = [uleb(count)];
  for (let i = 0; i < count; i++) {
    const start = at;
    const flags = body[at++];
    if (flags !== 0 || body[at] !== 0x41) throw new Error("pack: a data segment is not active at an i32.const address");
    const [address, next] = sleb32(body, at + 1);
    if (body[next] !== 0x0b) throw new Error("pack: a data segment's address is not a constant");
    const [len, data] = leb(body, next + 1);
    segments.push({ address: address >>> 0, bytes: body.subarray(data, data + len) });
    parts.push(body.subarray(start, next + 1), uleb(0));
    at = data + len;
  }
  return { section: Buffer.concat(parts), segments };
}

/** The custom section's body: its name, then (u32 address, u32 length) per segment, a u32
 * count first, then the segments' bytes deflated together. */
function custom(segments) {
  const name = Buffer.from(SECTION);
  const table = Buffer.alloc(4 + 8 * segments.length);
  table.writeUInt32LE(segments.length, 0);
  segments.forEach((s, i) => {
    table.writeUInt32LE(s.address, 4 + 8 * i);
    table.writeUInt32LE(s.bytes.length, 8 + 8 * i);
  });
  const deflated = deflateSync(Buffer.concat(segments.map((s) => s.bytes)), { level: 9 });
  return Buffer.concat([uleb(name.length), name, table, deflated]);
}

/** `wasm` with its data segments moved into the `staunton.data` section. */
export function pack(wasm) {
  const out = [wasm.subarray(0, 8)];
  let moved = null;
  for (let at = 8; at < wasm.length; ) {
    const id = wasm[at];
    const [len, body] = leb(wasm, at + 1);
    const end = body + len;
    if (id === 11) {
      moved = emptied(wasm.subarray(body, end));
      out.push(section(11, moved.section));
    } else {
      out.push(wasm.subarray(at, end));
    }
    at = end;
  }
  if (moved) out.push(section(0, custom(moved.segments)));
  return Buffer.concat(out);
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split("/").pop())) {
  const [input, output] = process.argv.slice(2);
  writeFileSync(output, pack(readFileSync(input)));
}
