// The JavaScript door against the crate: each case of the parity corpus
// (tests/fixtures/doors.json) gives the crate's own answer (doors-answers.txt, which the
// crate's `embed` unit test checks): the same bytes, or the same parameter, sentence and
// suggestion. python/tests/test_doors.py holds the Python door to it too.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as staunton from "../lib/node.js";
import { fnv1a } from "./helpers.mjs";

const fixtures = new URL("../../tests/fixtures/", import.meta.url);
const { cases } = JSON.parse(readFileSync(new URL("doors.json", fixtures), "utf8"));
const answers = new Map(
  readFileSync(new URL("doors-answers.txt", fixtures), "utf8")
    .split("\n")
    .filter((line) => line)
    .map((line) => {
      const [name, ...rest] = line.split("\t");
      return [name, rest];
    }),
);

/** A corpus value as JavaScript gives it: `{ repeat, times }` written out. */
const value = (given) => (given && typeof given === "object" && !Array.isArray(given) ? given.repeat.repeat(given.times) : given);

/** The function of a corpus call, in the package's names. */
const FUNCTIONS = { png: "png", svg: "svg", text: "text", describe: "describe", game_gif: "gameGif" };

function call(c) {
  const options = Object.fromEntries(Object.entries(c.options).map(([k, v]) => [k, value(v)]));
  const first = c.call === "game_gif" ? value(c.pgn) : c.position;
  const out = staunton[FUNCTIONS[c.call]](first ?? undefined, options);
  return typeof out === "string" ? new TextEncoder().encode(out) : out;
}

test("every case of the corpus has the crate's answer", () => {
  assert.deepEqual(cases.map((c) => c.name), [...answers.keys()]);
});

for (const c of cases) {
  test(`door parity: ${c.name}`, () => {
    const answer = answers.get(c.name);
    if (answer[0] === "ok") {
      assert.equal(fnv1a(call(c)), answer[1]);
      return;
    }
    const [, param, suggestion, sentence] = answer;
    if (param === "") {
      // A name that is no parameter: a TypeError of the call, with the crate's suggestion.
      assert.throws(() => call(c), (error) => {
        assert.ok(error instanceof TypeError, String(error));
        assert.equal(error.suggestion, suggestion || undefined);
        return true;
      });
      return;
    }
    assert.throws(() => call(c), (error) => {
      assert.ok(!(error instanceof TypeError), String(error));
      assert.deepEqual({ param: error.param, message: error.message }, { param, message: sentence });
      return true;
    });
  });
}
