#!/usr/bin/env bash
# Runs each libFuzzer target for a bounded time, seeded from the test fixtures.
#
#   Fuzz/run.sh                 # every target, 60 s each
#   SECONDS_EACH=300 MAX_LEN=65536 Fuzz/run.sh ManifestFuzzer
#
# The targets exist only with AGGREGATE_FUZZ=1 (see Package.swift) and are built in their own scratch path
# with libFuzzer and AddressSanitizer, so the normal `swift build` / `swift test` never see them. Crashing
# inputs land in .build-fuzz/findings/<target>/ (not artifacts/: SwiftPM empties that folder on every build);
# keep each as a regression test in the normal suite.
# Leak detection is on; Fuzz/lsan.supp may hold suppressions for third-party or Foundation leaks only (it holds
# none today; see docs/TESTING.md). Any leak stops the run with its stack.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
seconds="${SECONDS_EACH:-60}"
scratch="$root/.build-fuzz"
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(FeedParserFuzzer ManifestFuzzer RecordReadersFuzzer)

flags=(--scratch-path "$scratch" -Xswiftc -sanitize=fuzzer,address -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld)
for target in "${targets[@]}"; do
    (cd "$root" && AGGREGATE_FUZZ=1 swift build "${flags[@]}" --product "$target" 2>&1 | grep -E "error:" >&2 || true)
done
bin="$(cd "$root" && AGGREGATE_FUZZ=1 swift build "${flags[@]}" --show-bin-path)"

seed() {
    local target="$1" corpus="$2"
    mkdir -p "$corpus"
    case "$target" in
        FeedParserFuzzer) cp "$root"/Tests/FeedParsingTests/Fixtures/*.{rss,atom,rdf,xml} "$corpus"/
                          cp "$root"/Tests/FeedParsingTests/Fixtures/crashers/* "$corpus"/ ;;
        ManifestFuzzer) cp "$root"/manifest.json "$root"/Tests/aggregateTests/Fixtures/*.json "$corpus"/ 2>/dev/null || true
                        find "$root/Examples" -name '*.json' -size -64k -exec cp {} "$corpus"/ \; ;;
        RecordReadersFuzzer) cp "$root"/Tests/FilesProviderTests/Fixtures/*.{csv,ndjson,json} "$corpus"/ ;;
    esac
    cp "$root"/Tests/*Tests/Fixtures/Fuzz/"$target"/* "$corpus"/ 2>/dev/null || true
}

# Both libFuzzer's per-input leak check and LeakSanitizer's at exit read the suppressions.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$root/Fuzz/lsan.supp}"
status=0
printf '%-22s %8s %10s %s\n' target seconds executions result
for target in "${targets[@]}"; do
    corpus="$scratch/corpus/$target"
    artifacts="$scratch/findings/$target/"
    mkdir -p "$artifacts"
    seed "$target" "$corpus"
    log="$scratch/$target.log"
    if "$bin/$target" -max_total_time="$seconds" -max_len="${MAX_LEN:-16384}" -timeout=10 -rss_limit_mb=2048 -detect_leaks=1 \
        -artifact_prefix="$artifacts" "$corpus" > "$log" 2>&1; then
        result=ok
    else
        result="FAILED (see $log and $artifacts)"
        status=1
    fi
    runs="$(grep -oE 'Done [0-9]+ runs' "$log" | grep -oE '[0-9]+' || echo '?')"
    printf '%-22s %8s %10s %s\n' "$target" "$seconds" "$runs" "$result"
done
exit $status
