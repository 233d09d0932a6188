#!/usr/bin/env bash
# Writes the secrets docker-compose.yml reads from .env (next to it, git-ignored), once: an
# existing file is kept, so the database and the store keep the keys they were made with.
# Usage: bash stack/compose-env.sh [path of the .env file]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
file="${1:-$root/.env}"
if [ -e "$file" ]; then
  echo "[compose-env] $file exists; kept as it is"
  exit 0
fi
random_hex() { od -An -tx1 -N"$1" /dev/urandom | tr -d ' \n'; }
umask 077
cat > "$file" <<ENV
# Secrets of this installation, made by stack/compose-env.sh. Never commit this file.
POSTGRES_PASSWORD=$(random_hex 24)
S3_ACCESS_KEY_ID=cellar-$(random_hex 6)
S3_SECRET_ACCESS_KEY=$(random_hex 24)
SIGNING_SECRET=$(random_hex 32)
ENV
echo "[compose-env] wrote new secrets to $file"
