#ifndef AGGREGATE_CJQ_H
#define AGGREGATE_CJQ_H

#include <stddef.h>

/// `--jq` runs on the system's libjq (Debian: libjq-dev, macOS: Homebrew's jq). The jq language itself is
/// libjq's; this file only repeats what the `jq` program's own main loop does around it (jq 1.6 main.c,
/// `process`), so that output is byte for byte what `jq -r` prints. Its refcounting stays here, in C, where
/// every `jv` is owned by exactly one line.
///
/// Not thread-safe: a filter must be used by one thread at a time (JQExpression's lock); separate filters may run
/// at once (docs/ARCHITECTURE.md, "The jq lock").
#if defined(__has_include)
#if !__has_include(<jq.h>)
#error "aggregate needs libjq for --jq: install libjq-dev (Debian/Ubuntu: apt-get install libjq-dev; Fedora: jq-devel; macOS: brew install jq)"
#endif
#endif

typedef struct aggregate_jq_filter aggregate_jq_filter;

/// Bytes produced by a call (output text or jq's messages); free with `aggregate_jq_buffer_free`.
typedef struct {
    char *bytes;
    size_t length;
    size_t capacity;
} aggregate_jq_buffer;

void aggregate_jq_buffer_free(aggregate_jq_buffer *buffer);

/// Compiles `program`. On failure returns NULL and `messages` holds what `jq` prints on stderr, line by line
/// ("jq: error: syntax error, … at <top-level>, line 1:", the program, "jq: 1 compile error").
aggregate_jq_filter *aggregate_jq_compile(const char *program, aggregate_jq_buffer *messages);

void aggregate_jq_free(aggregate_jq_filter *filter);

typedef enum {
    AGGREGATE_JQ_OK = 0,
    /// The input is not JSON (never for our own output); `messages` says why.
    AGGREGATE_JQ_BAD_INPUT = 2,
    /// An uncaught jq error (`error("…")`, `.a` of a string): the outputs before it are in `output`,
    /// `messages` holds jq's text without the "jq: error (at …): " prefix; `exit_code` is 1 when that text is
    /// the JSON of a value that is not a string (jq says "(not a string)").
    AGGREGATE_JQ_ERROR = 5,
    /// `halt` or `halt_error`: stop; `exit_code` set, `messages` holds what halt_error prints.
    AGGREGATE_JQ_HALTED = 6,
} aggregate_jq_status;

/// Runs the filter on one JSON text, appending each result to `output` as `jq -r` prints it (strings raw,
/// other values indented by two spaces, or compact with `compact`), each followed by a newline.
aggregate_jq_status aggregate_jq_run(
    aggregate_jq_filter *filter, const char *json, size_t length, int compact, aggregate_jq_buffer *output,
    aggregate_jq_buffer *messages, int *exit_code);

/// Whether the filter keeps one JSON text, as a manifest's `"filter": {"jq": …}` reads it: 1 when it yields at
/// least one result that is neither `false` nor `null` (so both `select(…)` and a bare condition work), 0 when
/// it yields none, `-AGGREGATE_JQ_ERROR`, `-AGGREGATE_JQ_HALTED` or `-AGGREGATE_JQ_BAD_INPUT` when it stopped
/// before a result that keeps, `messages` then saying why. It stops at the first result that keeps.
int aggregate_jq_keeps(aggregate_jq_filter *filter, const char *json, size_t length, aggregate_jq_buffer *messages);

#endif
