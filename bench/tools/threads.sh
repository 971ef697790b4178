#!/bin/bash
# usage: threads.sh RUNS DIR — CPU per thread of the bundled CLI serving RUNS seeded runs, under 8 s of GETs (after 8 s warm-up)
cd "$(dirname "$0")/../.." || exit 1; rm -rf $2; mkdir -p $2
node --conditions=@hermetic/source --import tsx bench/servers/scaled-emulator.ts --runs $1 > $2/out.txt 2>$2/err.txt &
pid=$!
until grep -q LISTENING $2/out.txt; do sleep 1; done
port=$(awk '/LISTENING/{print $2}' $2/out.txt)
cli=$(pgrep -f "hermes-emulator-launcher.cjs serve --port $port")
node --import tsx bench/tools/random-gets.ts $port $1 > /dev/null
snap() { for t in /proc/$cli/task/*; do echo "$(basename $t) $(cat $t/comm) $(awk "{print \$14\"_\"\$15}" $t/stat)"; done; }
snap > $2/before.txt
node --import tsx bench/tools/random-gets.ts $port $1 > $2/load.txt
snap > $2/after.txt
kill -TERM $pid; wait $pid
req=$(node -e "console.log(JSON.parse(require('fs').readFileSync('$2/load.txt','utf8')).total)")
main=$(head -1 $2/before.txt | cut -d' ' -f1)
b=$(grep "^$main " $2/before.txt | cut -d' ' -f3); a=$(grep "^$main " $2/after.txt | cut -d' ' -f3)
node -e "const [bu,bs]='$b'.split('_').map(Number),[au,as]='$a'.split('_').map(Number);console.log('main thread: user '+((au-bu)*1e4/$req).toFixed(1)+' us/req, system '+((as-bs)*1e4/$req).toFixed(1)+' us/req, requests $req')"
