#!/usr/bin/env bash
# Bounded live smoke of the oracle runner against the real Hermes 0.19.0 gateway (process
# launcher): scripted chat completion, held run → running → released → completed, crash and
# restart, and the libfaketime clock; then record/replay of an example app through hermes-emulator
# record in front of the gateway (~18 s); then `oracle compare` interrupted by SIGINT leaves no
# gateway behind (process launcher, and container launcher with --container); gateways forked from a
# fork server; `oracle compare` ending by itself with nothing left on every path (verdict fresh and
# --shared, SIGINT, SIGTERM, stdout closed early). First run on a machine builds the venv from PyPI (~50 s);
# later runs reuse ~/.cache/hermetic (~15 s). With --container it also builds the hermes-emulator
# image (image/build.sh), checks that a keyless start is refused, and runs the testcontainers
# modules' tests against it: @hermetic/testcontainers (vitest) and pytest-hermetic --hermes-image.
#   scripts/live-smoke.sh              process launcher only
#   scripts/live-smoke.sh --container  also the container launcher (starts a private dockerd unless
#                                      one runs, and stops only one it started; a fresh machine
#                                      installs docker.io + debootstrap and builds the base and
#                                      gateway images first, ~4 min)
# Exit code: vitest's (0 all passed). Bounded by HERMETIC_SMOKE_TIMEOUT seconds (default 900).
set -euo pipefail
cd "$(dirname "$0")/.."
LIMIT=${HERMETIC_SMOKE_TIMEOUT:-900}
if ! ls /usr/lib/*/faketime/libfaketimeMT.so.1 >/dev/null 2>&1; then
  echo "[live-smoke] installing faketime (Debian) for the clock test" >&2
  apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends faketime >/dev/null
fi
FILES=(packages/oracle-runner/test/live.gateway.test.ts packages/oracle-runner/test/forkServer.live.test.ts packages/diff/test/record-replay/record-replay.live.test.ts packages/diff/test/cli-interrupt.live.test.ts packages/diff/test/cli-exit.live.test.ts)
ENGINE_STARTED=0
# stop the engine only if this script started it (a developer's running engine is left alone)
cleanup() { if [ "$ENGINE_STARTED" = 1 ]; then scripts/container-engine.sh down || true; fi; }
trap cleanup EXIT
if [ "${1:-}" = "--container" ]; then
  # a fresh machine installs docker.io + debootstrap and builds the base image here (~3 min cold)
  ENGINE_OUT=$(timeout --kill-after=30 "${HERMETIC_ENGINE_TIMEOUT:-900}" scripts/container-engine.sh up)
  ENGINE_STARTED=$(sed -n 's/^HERMETIC_ENGINE_STARTED=//p' <<<"$ENGINE_OUT")
  export "$(grep '^DOCKER_HOST=' <<<"$ENGINE_OUT")"
  FILES+=(packages/oracle-runner/test/container.gateway.test.ts)
  # the emulator's image: built, refused without a key, then tried through both testcontainers modules
  timeout --kill-after=30 "${HERMETIC_IMAGE_TIMEOUT:-900}" image/build.sh | tee /tmp/hermetic-image-build.out >&2
  IMAGE=$(sed -n 's/^IMAGE=//p' /tmp/hermetic-image-build.out)
  if docker run --rm --network none "$IMAGE" >/tmp/hermetic-image-refusal.txt 2>&1 || ! grep -q "refusing to start" /tmp/hermetic-image-refusal.txt; then
    echo "[live-smoke] the image started without a key:" >&2; cat /tmp/hermetic-image-refusal.txt >&2; exit 1
  fi
  echo "[live-smoke] image $IMAGE: a keyless start is refused ($(tail -1 /tmp/hermetic-image-refusal.txt | cut -c1-80)…)" >&2
  FILES+=(packages/testcontainers/test/container.test.ts docs/examples/in-a-container.test.ts)
  export HERMETIC_REQUIRE_CONTAINER=1 HERMETIC_EMULATOR_IMAGE="$IMAGE" TESTCONTAINERS_RYUK_DISABLED=true TESTCONTAINERS_HOST_OVERRIDE=localhost
fi
# one file at a time: on a fresh machine the first one builds the venv (and the images), which two
# files building side by side into the same cache directory would break
code=0
HERMETIC_LIVE=1 timeout --kill-after=30 "$LIMIT" npx vitest run --no-file-parallelism "${FILES[@]}" || code=$?
if [ "${1:-}" = "--container" ]; then
  timeout --kill-after=30 600 scripts/pytest-plugin.sh --hermes-image "$IMAGE" || code=$((code == 0 ? 1 : code))
fi
exit "$code"
