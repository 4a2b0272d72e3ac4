// A plain ES module using the packed package as a user would: `import … from "staunton"`,
// no init() (ready on import). scripts/ci/js-test.sh runs it with Node and Deno in a
// scratch folder where the tarball of `npm pack` is installed. Exits non-zero on a fault.
import { png, svg, describe, fence, gameGif, version } from "staunton";

const fail = (why) => {
  console.error(`consumer: ${why}`);
  process.exit(1);
};
const image = png("start", { size: 240, arrows: ["Ge2e4"] });
if (new TextDecoder().decode(image.subarray(1, 4)) !== "PNG") fail("png() is not a PNG");
if (!svg("start").startsWith("<svg")) fail("svg() is not an SVG");
if (!describe("start").startsWith("White: King e1")) fail("describe() says something else");
if (fence("fen", "start").width !== 400) fail("fence() has another width");
if (gameGif("1. e4 e5", { size: 120 }).length < 100) fail("gameGif() is too short");
try {
  png("start", { size: 9999 });
  fail("a bad size was accepted");
} catch (error) {
  if (error.param !== "size") fail(`the error names ${error.param}, not size`);
}
const runtime = typeof Deno === "undefined" ? `Node ${process.version}` : `Deno ${Deno.version.deno}`;
console.log(`consumer: staunton ${version()} renders in ${runtime} (a PNG of ${image.length} bytes)`);
