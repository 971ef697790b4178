#!/bin/bash
# usage: prof.sh RUNS OUTDIR — profiles the bundled CLI serving RUNS seeded runs under 8 s of random GETs
cd "$(dirname "$0")/../.." || exit 1; rm -rf $2; mkdir -p $2
node --conditions=@hermetic/source --import tsx bench/servers/scaled-emulator.ts --runs $1 --cpu-prof-dir $2 > $2/out.txt 2>$2/err.txt &
pid=$!
until grep -q LISTENING $2/out.txt; do sleep 1; done
port=$(awk '/LISTENING/{print $2}' $2/out.txt)
node --import tsx bench/tools/random-gets.ts $port $1 > $2/load.txt
kill -TERM $pid; wait $pid
ls $2
