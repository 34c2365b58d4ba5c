/* An example plugin in C: one item per name in options.names, and, with options.url, the first line of that
 * page's body as an item's subtitle (fetched through the host). Build: ./build.sh (clang --target=wasm32-wasi).
 *
 * Options: {"names": ["ada", "grace"], "url": "http://127.0.0.1:8080/greeting"}
 * It parses only what it needs of the input JSON by hand, to stay small; a real plugin would use a JSON library.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aggregate.h"

#ifndef GREETING
#define GREETING "Hello"
#endif

AGGREGATE_EXPORT("aggregate_alloc") void *aggregate_alloc(uint32_t len) { return malloc(len ? len : 1); }

static void emit_text(const char *text) { aggregate_emit(text, (uint32_t)strlen(text)); }

/* The string value after `"key":` in `json` (no escapes), copied into `out`; 0 when absent. */
static int string_after(const char *json, const char *from, const char *key, char *out, size_t size, const char **next) {
    char pattern[64];
    snprintf(pattern, sizeof pattern, "\"%s\"", key);
    const char *at = strstr(from ? from : json, pattern);
    if (!at) return 0;
    at = strchr(at + strlen(pattern), '"');
    if (!at) return 0;
    const char *end = strchr(at + 1, '"');
    if (!end || (size_t)(end - at - 1) >= size) return 0;
    memcpy(out, at + 1, (size_t)(end - at - 1));
    out[end - at - 1] = 0;
    if (next) *next = end + 1;
    return 1;
}

/* The first name of the options, or none. */
AGGREGATE_EXPORT("aggregate_check") int32_t aggregate_check(const char *input, uint32_t len) {
    (void)len;
    if (!strstr(input, "\"names\"")) {
        emit_text("{\"type\":\"problem\",\"option\":\"names\",\"message\":\"required: the names to greet\"}");
    }
    return 0;
}

AGGREGATE_EXPORT("aggregate_run") int32_t aggregate_run(const char *input, uint32_t len) {
    (void)len;
    char subtitle[256] = "";
    char url[512];
    if (string_after(input, 0, "url", url, sizeof url, 0)) {
        char request[700];
        snprintf(request, sizeof request, "{\"method\":\"GET\",\"url\":\"%s\"}", url);
        int32_t size = aggregate_http_request(request, (uint32_t)strlen(request));
        char *answer = malloc((size_t)size + 1);
        aggregate_result_read(answer, (uint32_t)size);
        answer[size] = 0;
        if (!strstr(answer, "\"status\":200") || !string_after(answer, 0, "body", subtitle, sizeof subtitle, 0)) {
            emit_text("{\"type\":\"error\",\"kind\":\"badResponse\",\"message\":\"the greeting could not be fetched\"}");
            return 1;
        }
        char *newline = strstr(subtitle, "\\n");
        if (newline) *newline = 0;
        free(answer);
    }
    const char *names = strstr(input, "\"names\"");
    if (!names) return 2;
    const char *end = strchr(names, ']');
    const char *cursor = strchr(names, '[');
    char name[128];
    int count = 0;
    while (cursor && cursor < end) {
        const char *open = strchr(cursor, '"');
        if (!open || open > end) break;
        const char *close = strchr(open + 1, '"');
        if (!close || (size_t)(close - open - 1) >= sizeof name) break;
        memcpy(name, open + 1, (size_t)(close - open - 1));
        name[close - open - 1] = 0;
        char message[512];
        snprintf(message, sizeof message,
                 "{\"type\":\"item\",\"id\":\"%s\",\"title\":\"%s, %s\",\"subtitle\":\"%s\",\"fields\":{\"n\":%d}}",
                 name, GREETING, name, subtitle, ++count);
        emit_text(message);
        cursor = close + 1;
    }
    char line[64];
    snprintf(line, sizeof line, "greeted %d", count);
    aggregate_log(1, line, (uint32_t)strlen(line));
    return 0;
}
