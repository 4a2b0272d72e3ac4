#!/usr/bin/env bash
# Builds and tests the Python package (python/) as a user would get it: a fresh venv, pinned
# test tools, `pip install ./python` (maturin builds the crate with the Rust toolchain), then
# mypy over the package, its pytest suite, the notebook executed with nbclient (outputs
# checked), and the snapshot example (examples/snapshots/python, the package's pytest plugin).
#
#   scripts/ci/python-test.sh                     # STAUNTON_BIN unset: CLI comparisons skipped
#   STAUNTON_BIN=target/release/staunton scripts/ci/python-test.sh   # also bytes == the CLI's
#
# With STAUNTON_WHEEL (CI: the abi3 wheel scripts/dist.sh made from its sdist), that wheel
# is installed instead of building ./python, and maturin is not needed.
#
# Needs python3 (3.9+; python3-venv is installed if venv is missing) and cargo; the network
# only for PyPI and crates.io. The venv is $STAUNTON_PY_VENV (default: a temporary folder).
set -euo pipefail
cd "$(dirname "$0")/../.."

python=${PYTHON:-python3}
venv=${STAUNTON_PY_VENV:-${TMPDIR:-/tmp}/staunton-python-test}
rm -rf "$venv"
if ! "$python" -m venv "$venv" 2> /dev/null; then
  # Debian's python3 has venv without ensurepip until python3-venv is installed.
  rm -rf "$venv"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv > /dev/null
  "$python" -m venv "$venv"
fi
pip=("$venv/bin/python" -m pip --disable-pip-version-check)

echo "== python-test: test tools (pinned) into $venv"
"${pip[@]}" install -q pytest==9.2.0 chess==1.11.2 \
  nbclient==0.11.0 ipykernel==7.4.0 nbformat==5.11.1 mypy==1.18.2

if [[ -n ${STAUNTON_WHEEL:-} ]]; then
  echo "== python-test: pip install $(basename "$STAUNTON_WHEEL") (built by scripts/dist.sh)"
  "${pip[@]}" install -q --no-deps "$STAUNTON_WHEEL"
else
  echo "== python-test: pip install ./python (maturin builds the native module)"
  "${pip[@]}" install -q maturin==1.13.1
  "${pip[@]}" install -q ./python
fi
"$venv/bin/python" -c 'import staunton; print("staunton", staunton.__version__, staunton.png("start")[:4])'

if [[ -n ${STAUNTON_BIN:-} ]]; then
  # Relative paths would break in pytest's temporary folders.
  STAUNTON_BIN=$(cd "$(dirname "$STAUNTON_BIN")" && pwd)/$(basename "$STAUNTON_BIN")
  export STAUNTON_BIN
fi

echo "== python-test: mypy (the annotations and the native module's stubs agree)"
(cd python && "$venv/bin/mypy" --cache-dir=/dev/null staunton)

echo "== python-test: pytest python/tests"
# From python/tests, so the installed package is imported, not the source folder.
(cd python/tests && "$venv/bin/pytest" -q -p no:cacheprovider .)

echo "== python-test: the notebook, executed with nbclient"
"$venv/bin/python" python/examples/check_notebook.py

echo "== python-test: the snapshot example (the pytest plugin)"
"$venv/bin/pytest" -q -p no:cacheprovider examples/snapshots/python
echo "python-test: passed"
