// `npm run build`: compiles the wasm crate (Cargo.toml, src/lib.rs) for
// wasm32-unknown-unknown and writes dist/staunton.wasm, the one file the package's entries
// load. Adds the Rust target through rustup when it is missing; needs nothing else.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";

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

if (installed() === false) run("rustup", ["target", "add", target]);
run("cargo", ["build", "--release", "--locked", "--target", target]);
mkdirSync(`${here}/dist`, { recursive: true });
copyFileSync(`${here}/target/${target}/release/staunton_wasm.wasm`, `${here}/dist/staunton.wasm`);
console.log(`dist/staunton.wasm: ${statSync(`${here}/dist/staunton.wasm`).size} bytes`);
