// The browser entry (lib/web.js) in Node: it refuses calls before init(), and once given
// the module (bytes, a compiled Module, a Response) it renders what the Node entry renders.
// Each test imports its own copy of the entry (a query string makes a new module record).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as node from "../lib/node.js";
import { fnv1a } from "./helpers.mjs";

const bytes = readFileSync(new URL("../dist/staunton.wasm", import.meta.url));
let copies = 0;
const web = () => import(`../lib/web.js?copy=${++copies}`);

test("a call before init() says to await init()", async () => {
  const staunton = await web();
  assert.throws(() => staunton.png("start"), { message: /await init\(\)/ });
});

test("init() takes the module's bytes", async () => {
  const staunton = await web();
  await staunton.init(bytes);
  assert.equal(fnv1a(staunton.png("start", { size: 240 })), fnv1a(node.png("start", { size: 240 })));
  assert.equal(staunton.svg("start"), node.svg("start"));
  assert.equal(staunton.fence("fen", "start").alt, node.describe("start"));
});

test("init() takes a compiled WebAssembly.Module, and a second init() is the first", async () => {
  const staunton = await web();
  const first = staunton.init(new WebAssembly.Module(bytes));
  assert.equal(staunton.init(), first);
  await first;
  assert.equal(staunton.text("start"), node.text("start"));
});

test("init() takes a Response (what fetch() gives)", async () => {
  const staunton = await web();
  const response = new Response(bytes, { headers: { "Content-Type": "application/wasm" } });
  await staunton.init(response);
  assert.equal(fnv1a(staunton.gif("start")), fnv1a(node.gif("start")));
});

test("a failed init() can be tried again", async () => {
  const staunton = await web();
  await assert.rejects(staunton.init(new Response("missing", { status: 404 })), /HTTP 404/);
  await staunton.init(bytes);
  assert.match(staunton.describe("start"), /^White/);
});
