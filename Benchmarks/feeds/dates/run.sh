#!/usr/bin/env bash
# What one feed date costs FeedDateParser, in instructions (valgrind's callgrind: exact and repeatable on a
# shared machine, unlike wall time), for English RFC 822, ISO 8601 and RFC 822 in other languages. The
# parser's sources are compiled as a release build compiles them (-O, whole module) with main.swift.
#
#   Benchmarks/feeds/dates/run.sh              # the working tree
#   REV=1718f59 Benchmarks/feeds/dates/run.sh  # that revision's parser too, for a before/after
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
work="${TMPDIR:-/tmp}/aggregate-date-bench"
rm -rf "$work" && mkdir -p "$work/working-tree"
cp "$root"/Sources/FeedParsing/Dates/*.swift "$work/working-tree/"
builds=(working-tree)
if [ -n "${REV:-}" ]; then
    mkdir -p "$work/$REV"
    for file in $(git -C "$root" ls-tree --name-only "$REV" Sources/FeedParsing/Dates/); do
        git -C "$root" show "$REV:$file" > "$work/$REV/$(basename "$file")"
    done
    builds=("$REV" working-tree)
fi
for build in "${builds[@]}"; do
    swiftc -O -wmo -module-name FeedParsing "$work/$build"/*.swift "$here/main.swift" -o "$work/$build/date-bench"
done
instructions() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null | sed -n 's/.*Collected : //p'; }
for set in en iso foreign; do
    count=$([ "$set" = foreign ] && echo 2000 || echo 100000)  # the old parser's foreign path is ~1000x slower
    for build in "${builds[@]}"; do
        base=$(instructions "$work/$build/date-bench" "$set" 1)
        total=$(instructions "$work/$build/date-bench" "$set" $((count + 1)))
        parsed=$("$work/$build/date-bench" "$set" "$count")
        printf '%-8s %-13s %9d instructions a date, %d of %d parsed\n' "$set" "$build" $(((total - base) / count)) "$parsed" "$count"
    done
done
