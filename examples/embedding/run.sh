#!/usr/bin/env bash
# Builds and runs the embedding example the way docs/embedding.md tells a new user to, against the
# berth-core artifact of this checkout: installs berth-core (with its sources and javadoc jars) into a
# private Maven repository (target/embedding-m2 at the repository root, never ~/.m2), builds this
# project from it by its coordinates, runs it on the module path and compares what it prints with
# expected-output.txt. .ci/run runs it; so can anyone: examples/embedding/run.sh
# The private repository starts empty, so the first run downloads the plugins it needs from Maven Central.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
repo="${BERTH_EXAMPLE_REPO:-$root/target/embedding-m2}"
version="$(sed -n 's:^  <version>\(.*\)</version>$:\1:p' "$root/pom.xml" | head -1)"
echo "== embedding example: berth-core $version installed into $repo"
# the guide's install command, for berth-core and the parent POM it names
(cd "$root" && mvn -B -q -DskipTests -pl berth-core -am install -Dmaven.repo.local="$repo")
installed="$repo/dev/berth/berth-core/$version"
for jar in "berth-core-$version.jar" "berth-core-$version-sources.jar" "berth-core-$version-javadoc.jar"; do
  if [ ! -s "$installed/$jar" ]; then
    echo "== embedding example: $installed/$jar was not installed" >&2
    exit 1
  fi
done
mvn -B -q -f "$here/pom.xml" -Dmaven.repo.local="$repo" compile
out="$here/target/output.txt"
java -p "$here/target/classes:$installed/berth-core-$version.jar" -m example.embedding/example.Main >"$out"
if ! diff -u "$here/expected-output.txt" "$out"; then
  echo "== embedding example: its output differs from examples/embedding/expected-output.txt (above)" >&2
  exit 1
fi
echo "== embedding example: built against the installed berth-core, ran, printed expected-output.txt"
