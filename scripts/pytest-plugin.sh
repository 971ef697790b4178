#!/usr/bin/env bash
# Builds python/pytest-hermetic as a wheel, installs it with the official openai SDK, pytest and
# testcontainers into a venv (~/.cache/hermetic/pytest-venv; hermes-agent-api-client too where the
# Python is >= 3.13, which it requires), and runs the plugin's tests and the guide's Python example
# with it, against the repository's hermes-emulator bin (Node must be on PATH).
#   scripts/pytest-plugin.sh                      the bin mode
#   scripts/pytest-plugin.sh --hermes-image IMG   the same tests against the image (DOCKER_HOST set)
# Exit code: pytest's, except that "no tests ran" (5) is a failure, as is a run with no passed test.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${HERMETIC_PYTEST_VENV:-${HERMETIC_CACHE_DIR:-$HOME/.cache/hermetic}/pytest-venv}
PY=${PYTHON:-python3}
REQS=(openai==2.24.0 pytest==9.2.0 testcontainers==4.15.0)
log() { echo "[pytest-plugin] $*" >&2; }

if [ ! -x "$VENV/bin/python" ]; then
  log "creating $VENV"
  "$PY" -m venv "$VENV"
fi
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "${REQS[@]}" setuptools wheel
if "$VENV/bin/python" -c 'import sys; sys.exit(sys.version_info < (3, 13))'; then
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check hermes-agent-api-client==0.3.3
else
  log "hermes-agent-api-client needs Python >= 3.13; this venv has $("$VENV/bin/python" -c 'import sys; print(sys.version.split()[0])'): its test skips"
fi
WHEELS=$(mktemp -d /tmp/pytest-hermetic-wheel.XXXXXX)
trap 'rm -rf "$WHEELS"' EXIT
"$VENV/bin/python" -m pip wheel --quiet --disable-pip-version-check --no-deps --no-build-isolation -w "$WHEELS" python/pytest-hermetic
log "built $(basename "$WHEELS"/*.whl)"
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --force-reinstall --no-deps "$WHEELS"/*.whl

ARGS=(--hermes-emulator-bin "$PWD/packages/emulator/bin/hermes-emulator.cjs")
[ "${1:-}" = "--hermes-image" ] && ARGS=(--hermes-image "${2:?image}")
export TESTCONTAINERS_RYUK_DISABLED=true TESTCONTAINERS_HOST_OVERRIDE=localhost
set +e
"$VENV/bin/python" -m pytest -p no:cacheprovider -rs "${ARGS[@]}" python/pytest-hermetic/tests docs/examples/test_app.py 2>&1 | tee "$WHEELS/out.txt"
code=${PIPESTATUS[0]}
set -e
if [ "$code" = 5 ]; then log "pytest collected no tests"; exit 1; fi
grep -Eq '[0-9]+ passed' "$WHEELS/out.txt" || { log "no test passed"; exit 1; }
exit "$code"
