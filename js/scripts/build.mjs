// `npm run build`: compiles the wasm crate (Cargo.toml, src/lib.rs) for
// wasm32-unknown-unknown and writes dist/staunton.wasm, the one file the package's entries
// load: the module optimised for size by wasm-opt (binaryen, a pinned devDependency), then
// its constants packed (scripts/pack.mjs). Adds the Rust target through rustup and the
// devDependencies through `npm ci` when they are missing; needs nothing else.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { pack } from "./pack.mjs";

const here = fileURLToPath(new URL("..", import.meta.url));
const target = "wasm32-unknown-unknown";
const run = (command, args) => execFileSync(command, args, { cwd: here, stdio: "inherit" });

function installed() {
  try {
    const list = execFileSync("rustup", ["target", "list", "--installed"], { cwd: here });
    return list.toString().split("\n").includes(target);
  } catch {
    return null; // no rustup: cargo will say if the target is missing
  }
}

/** The features rustc turns on for the target, and SIMD (.cargo/config.toml): wasm-opt must
 * accept what it finds. */
const FEATURES = [
  "bulk-memory",
  "mutable-globals",
  "sign-ext",
  "nontrapping-float-to-int",
  "reference-types",
  "multivalue",
  "simd",
].map((f) => `--enable-${f}`);

if (installed() === false) run("rustup", ["target", "add", target]);
run("cargo", ["build", "--release", "--locked", "--target", target]);
const built = `${here}/target/${target}/release/staunton_wasm.wasm`;
const wasmOpt = `${here}/node_modules/.bin/wasm-opt`;
if (!existsSync(wasmOpt)) run("npm", ["ci", "--no-audit", "--no-fund"]);
mkdirSync(`${here}/dist`, { recursive: true });
const optimised = `${here}/target/staunton.opt.wasm`;
// Memory packing would split the constants into thousands of segments around their runs of
// zeros: pack.mjs deflates the zeros to nothing, and the segments would each cost bytes.
run(wasmOpt, ["-Oz", "--skip-pass=memory-packing", ...FEATURES, "--strip-debug", "--strip-producers", built, "-o", optimised]);
writeFileSync(`${here}/dist/staunton.wasm`, pack(readFileSync(optimised)));
const size = (path) => statSync(path).size.toLocaleString("en");
console.log(`cargo ${size(built)} bytes, wasm-opt ${size(optimised)}, packed: dist/staunton.wasm ${size(`${here}/dist/staunton.wasm`)}`);
