#!/usr/bin/env bash
# Runs a TypeScript entry point on Node 24 (the provisioned one when the system Node is older).
# Node 24 strips types natively, so there is no build step.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
node=node
if [ -x "$root/.tools/node/bin/node" ]; then node="$root/.tools/node/bin/node"; fi
export PATH="$(dirname "$(command -v "$node")"):$root/.tools/bin:$PATH"
exec "$node" --disable-warning=ExperimentalWarning "$@"
