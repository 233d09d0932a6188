#!/usr/bin/env bash
# The time-skipping Temporal test server (the Java SDK's io.temporal.testserver.TestServer) for
# the workflow unit tests: @temporalio/testing would download a native build of it, which this
# machine cannot; Maven brings the same server's jars instead, each checked against
# jars.sha256. Kept in the per-user cache; .tools/bin/temporal-test-server runs it (argument:
# the port, as the SDK passes it). Called by stack/provision.sh --tests.
set -euo pipefail
export LC_ALL=C # one sort order for the jar lists compared below
here=$(cd "$(dirname "$0")" && pwd)
TOOLS=$1
CACHE=$2
version=$(sed -n 's:.*<version>\([0-9.]*\)</version>.*:\1:p' "$here/pom.xml" | tail -1)
stamp=$(sha256sum "$here/pom.xml" "$here/jars.sha256" | sha256sum | cut -c1-16)
cached="$CACHE/temporal-test-server-$version"
say() { printf '[provision] %s\n' "$*" >&2; }

if [ -x "$TOOLS/bin/temporal-test-server" ] && [ "$(cat "$TOOLS/temporal-test-server/.cellar-hash" 2>/dev/null)" = "$stamp" ]; then
  exit 0
fi
if ! command -v java >/dev/null || ! command -v mvn >/dev/null; then
  say "java or mvn is missing: no time-skipping test server, so the workflow unit tests (test/workflows/) will fail"
  exit 1
fi
if [ "$(cat "$cached/.cellar-hash" 2>/dev/null)" != "$stamp" ]; then
  say "fetching the Temporal test server $version (Java jars, Maven) for the workflow unit tests"
  tmp=$(mktemp -d)
  mvn -q -B -Dstyle.color=never -f "$here/pom.xml" org.apache.maven.plugins:maven-dependency-plugin:3.8.1:copy-dependencies \
    -DincludeScope=runtime -DoutputDirectory="$tmp/lib" >&2
  # Exactly the pinned jars, each with its pinned hash.
  (cd "$tmp/lib" && ls *.jar) | diff - <(awk '{print $2}' "$here/jars.sha256" | sort) >&2 \
    || { say "the test server's jars differ from stack/temporal-test-server/jars.sha256"; rm -rf "$tmp"; exit 1; }
  (cd "$tmp/lib" && sha256sum --quiet -c "$here/jars.sha256") >&2 || { rm -rf "$tmp"; exit 1; }
  echo "$stamp" > "$tmp/.cellar-hash"
  rm -rf "$cached" && mkdir -p "$CACHE" && mv "$tmp" "$cached"
fi
mkdir -p "$TOOLS/bin"
rm -rf "$TOOLS/temporal-test-server" && cp -a "$cached" "$TOOLS/temporal-test-server"
cat > "$TOOLS/bin/temporal-test-server" <<'SH'
#!/bin/sh
# The Temporal test server (time skipping), as stack/temporal-test-server/install.sh put it here.
exec java -cp "$(dirname "$0")/../temporal-test-server/lib/*" io.temporal.testserver.TestServer "$@"
SH
chmod +x "$TOOLS/bin/temporal-test-server"
say "Temporal test server $version ready in .tools/bin"
