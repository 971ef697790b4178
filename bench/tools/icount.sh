#!/bin/bash
# Instructions per in-process POST: (I(3000 + 5000) - I(3000 + 1000)) / 4000 under cachegrind.
# usage: icount.sh [package] [post|keyed]   (needs valgrind; ~1.5 min; run from the repo root)
PKG=${1:-@hermetic/emulator}
dir=$(dirname "$0")
count() { PKG=$PKG valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null node --import tsx "$dir/icount.ts" "$1" "$2" 2>&1 | grep -E "I\s+refs" | tr -d , | awk '{print $NF}'; }
low=$(count 1000 "$2"); high=$(count 5000 "$2")
echo "$PKG ${2:-post}: $(( (high - low) / 4000 )) instructions per POST ($low, $high)"
