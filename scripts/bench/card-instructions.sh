#!/usr/bin/env bash
# Instructions per cached answer of /diagram.png and /card.png, counted by callgrind: the
# repeatable side of `cargo bench --bench card -- share` (wall-clock microseconds on a busy
# 2-core machine swing by 2×; instruction counts do not). Each case of the bench's `share`
# group runs for 2 s under callgrind; the instructions of its requests (the bench's `serve`,
# inclusive) are divided by the requests answered (calls of `answer::revalidate`, once per
# answer). Needs valgrind (apt-get install -y valgrind).
# Usage: scripts/bench/card-instructions.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v valgrind > /dev/null || { echo "card-instructions.sh: valgrind is not installed" >&2; exit 2; }
bin=$(cargo bench --bench card --no-run --message-format=json 2> /dev/null |
  python3 -c 'import json,sys
for l in sys.stdin:
    m = json.loads(l)
    if m.get("reason") == "compiler-artifact" and m["target"]["name"] == "card" and m.get("executable"):
        print(m["executable"])')
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for case in diagram untitled card; do
  valgrind --tool=callgrind --callgrind-out-file="$out/$case" "$bin" --bench "share/cached-$case\$" \
    --profile-time 2 > /dev/null 2>&1
  python3 - "$out/$case" "$case" <<'PY'
import re, sys
names, calls, cost, current = {}, 0, 0, None
def name(token):
    m = re.match(r"\((\d+)\)(?: (.*))?", token)
    if m.group(2):
        names[m.group(1)] = m.group(2)
    return names.get(m.group(1), "")
lines = open(sys.argv[1], errors="replace").read().splitlines()
for i, line in enumerate(lines):
    if line.startswith(("fn=", "cfn=")):
        n = name(line.split("=", 1)[1].strip())
        if line.startswith("cfn="):
            current = n
    elif line.startswith("calls=") and current:
        # The line after calls= holds the inclusive cost of that call site.
        if "answer::revalidate" in current:
            calls += int(line[6:].split()[0])
        if current.startswith("card::serve::{{closure}}"):
            cost += int(lines[i + 1].split()[1])
print(f"{cost // max(calls, 1):>9} instructions per cached answer  share/cached-{sys.argv[2]} ({calls} answers)")
PY
done
