#!/usr/bin/env bash
# Starts/stops a private dockerd for the container launcher, in the mode that leaves the host's
# network settings alone (--iptables=false --ip-forward=false), and makes sure the local base image
# (Debian bookworm + python3 + python3-venv + libfaketime, built with debootstrap; no registry
# is reachable here) is loaded. Usage:
#   scripts/container-engine.sh up      # prints HERMETIC_ENGINE_STARTED=0|1 (1: this call started dockerd)
#                                       # and, last, the DOCKER_HOST=... line to export
#   scripts/container-engine.sh down
#   scripts/container-engine.sh status
# Env: HERMETIC_ENGINE_DIR (default /tmp/hermetic-engine; keep it short: socket paths < 108 chars),
#      HERMETIC_CACHE_DIR (default ~/.cache/hermetic; the base image tarball is cached there).
set -euo pipefail
W=${HERMETIC_ENGINE_DIR:-/tmp/hermetic-engine}
CACHE=${HERMETIC_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/hermetic}
BASE_IMAGE=${HERMETIC_BASE_IMAGE:-local/hermetic-debian:bookworm}
BASE_TAR="$CACHE/images/hermetic-debian-bookworm.tar.gz"
export DOCKER_HOST="unix://$W/docker.sock"
log() { echo "[container-engine] $*" >&2; }

mirror() {
  # The URL apt itself uses, from its deb822 sources (first bookworm main entry).
  awk '/^URIs:/ {u=$2} /^Suites:/ && / bookworm( |$)/ {print u; exit}' /etc/apt/sources.list.d/*.sources 2>/dev/null \
    || true
}

# apt once more after a failed try: a mirror hiccup is not a failure of the thing under test
apt_install() {
  for attempt in 1 2; do
    apt-get update -qq >/dev/null 2>&1 \
      && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >"$W.apt.log" 2>&1 && return 0
    log "apt-get install $* failed (attempt $attempt); see $W.apt.log"
    sleep 5
  done
  tail -20 "$W.apt.log" >&2
  return 1
}

engine_up() {
  STARTED=0
  if ! command -v dockerd >/dev/null || ! command -v debootstrap >/dev/null; then
    log "installing docker.io and debootstrap from Debian"
    apt_install docker.io debootstrap
  fi
  mkdir -p "$W"
  if [ -f "$W/dockerd.bgpid" ] && kill -0 "$(cat "$W/dockerd.bgpid")" 2>/dev/null && docker info >/dev/null 2>&1; then
    log "dockerd already running"
  else
    log "starting dockerd (data in $W)"
    # --bridge=none: gateways use host networking and builds run with --network none, so the engine
    # makes no bridge (and a second engine on the machine does not meet the first one's docker0)
    dockerd --iptables=false --ip-forward=false --bridge=none -H "$DOCKER_HOST" --data-root "$W/data" --exec-root "$W/exec" \
      --pidfile "$W/dockerd.pid" >"$W/dockerd.log" 2>&1 &
    echo $! >"$W/dockerd.bgpid"
    STARTED=1
    # a loaded machine may take a while: up to 60 s
    for _ in $(seq 1 240); do docker info >/dev/null 2>&1 && break; sleep 0.25; done
    docker info >/dev/null 2>&1 || { log "dockerd did not come up; see $W/dockerd.log"; tail -20 "$W/dockerd.log" >&2; exit 1; }
  fi
  if ! docker image inspect "$BASE_IMAGE" >/dev/null 2>&1 && [ -f "$BASE_TAR" ]; then
    log "loading cached base image $BASE_TAR"
    docker load -q -i "$BASE_TAR" >/dev/null
  fi
  if ! docker image inspect "$BASE_IMAGE" >/dev/null 2>&1; then
    M=${MIRROR:-$(mirror)}
    [ -n "$M" ] || { log "cannot find the apt mirror URL; set MIRROR"; exit 1; }
    log "building base image $BASE_IMAGE with debootstrap from $M (about 90 s)"
    rm -rf "$W/rootfs"; mkdir -p "$W/debcache"
    debootstrap --variant=minbase --include=python3,python3-venv,libfaketime,ca-certificates \
      --cache-dir="$W/debcache" bookworm "$W/rootfs" "$M" >"$W/debootstrap.log" 2>&1 \
      || { log "debootstrap failed; see $W/debootstrap.log"; tail -20 "$W/debootstrap.log" >&2; exit 1; }
    tar -C "$W/rootfs" --exclude=./var/lib/apt/lists --exclude=./var/cache/apt -c . \
      | docker import -c 'CMD ["/bin/bash"]' - "$BASE_IMAGE" >/dev/null
    rm -rf "$W/rootfs"
    mkdir -p "$(dirname "$BASE_TAR")"
    docker save "$BASE_IMAGE" | gzip -1 >"$BASE_TAR.tmp" && mv "$BASE_TAR.tmp" "$BASE_TAR"
  fi
  docker run --rm --network none "$BASE_IMAGE" python3 -c 'import sys, venv; print("base image python", sys.version.split()[0])' >&2
  echo "HERMETIC_ENGINE_STARTED=$STARTED"
  echo "DOCKER_HOST=$DOCKER_HOST"
}

engine_down() {
  if [ -f "$W/dockerd.bgpid" ]; then
    docker ps -aq --filter label=org.testcontainers=true 2>/dev/null | xargs -r docker rm -f >/dev/null 2>&1 || true
    P=$(cat "$W/dockerd.bgpid")
    if kill -0 "$P" 2>/dev/null; then
      kill -TERM "$P"
      for _ in $(seq 1 150); do kill -0 "$P" 2>/dev/null || break; sleep 0.1; done
      kill -0 "$P" 2>/dev/null && kill -KILL "$P" || true
    fi
    rm -f "$W/dockerd.bgpid"
  fi
  umount "$W/exec/netns/default" 2>/dev/null || true
  log "dockerd stopped (image store kept in $W/data)"
}

case "${1:-}" in
  up) engine_up ;;
  down) engine_down ;;
  status)
    if docker info >/dev/null 2>&1; then echo "running: DOCKER_HOST=$DOCKER_HOST"; else echo "not running"; exit 1; fi ;;
  *) echo "usage: $0 up|down|status" >&2; exit 64 ;;
esac
