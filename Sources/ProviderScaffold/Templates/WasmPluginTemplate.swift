/// The files of a C plugin (`WasmPluginScaffold`): a working plugin that emits `count` items and, given a `url`,
/// fetches it through the host, so every part of ABI v1 a first plugin needs is there to edit.
enum WasmPluginTemplate {
    static func source(_ name: String) -> String {
        #"""
        /* \#(name): an aggregate plugin in C, ABI v1 (docs/PLUGINS.md). Made by `aggregate new-provider --wasm \#(name)`.
         *
         *   ./build.sh     builds \#(name).wasm (clang --target=wasm32-wasi, Debian's wasi-libc)
         *   ./test.sh      builds it and runs it through aggregate with manifest.json
         *
         * Options: {"count": 3, "prefix": "Item", "url": "https://api.example.com/status"}
         *   count   items to emit, 1-1000 (default 3)
         *   prefix  their titles' first word (default "Item")
         *   url     optional: fetched through the host (its host must be in plugins[].allowedHosts); the status is
         *           put in each item's fields
         *
         * The input is one JSON object ({"abi":1,"source":"…","options":{…},…}); this reads the few options it needs
         * by hand to stay small. A real plugin would use a JSON library (cJSON and jsmn build for wasm32 as they are).
         */
        #include <stdint.h>
        #include <stdio.h>
        #include <stdlib.h>
        #include <string.h>

        #include "aggregate.h"

        /* Where the host writes the input: any memory of the plugin's will do. */
        AGGREGATE_EXPORT("aggregate_alloc") void *aggregate_alloc(uint32_t len) { return malloc(len ? len : 1); }

        static void emit(const char *json) { aggregate_emit(json, (uint32_t)strlen(json)); }

        static void log_info(const char *text) { aggregate_log(1, text, (uint32_t)strlen(text)); }

        /* Where the value of option `key` starts in the input, or 0 when the options lack it. */
        static const char *option(const char *input, const char *key) {
            const char *options = strstr(input, "\"options\":");
            if (!options) return 0;
            char pattern[80];
            snprintf(pattern, sizeof pattern, "\"%s\":", key);
            const char *at = strstr(options, pattern);
            return at ? at + strlen(pattern) : 0;
        }

        /* A string option (no escapes) copied into `out`; 0 when it is absent or too long. */
        static int option_string(const char *input, const char *key, char *out, size_t size) {
            const char *at = option(input, key);
            if (!at || *at != '"') return 0;
            const char *end = strchr(at + 1, '"');
            if (!end || (size_t)(end - at - 1) >= size) return 0;
            memcpy(out, at + 1, (size_t)(end - at - 1));
            out[end - at - 1] = 0;
            return 1;
        }

        /* The integer written at `at` (digits after an optional '-'). Not strtol: it needs compiler-rt's __multi3,
         * which the toolchain's clang does not ship for wasm32. */
        static long parse_long(const char *at) {
            long sign = *at == '-' ? -1 : 1, value = 0;
            if (*at == '-') at++;
            while (*at >= '0' && *at <= '9' && value < 100000000) value = value * 10 + (*at++ - '0');
            return sign * value;
        }

        /* An integer option, or `fallback` when it is absent. */
        static long option_int(const char *input, const char *key, long fallback) {
            const char *at = option(input, key);
            return at ? parse_long(at) : fallback;
        }

        /* Option problems, one `problem` message each: `aggregate validate` shows them at their JSON path, exit 78. */
        AGGREGATE_EXPORT("aggregate_check") int32_t aggregate_check(const char *input, uint32_t len) {
            (void)len;
            long count = option_int(input, "count", 3);
            if (count < 1 || count > 1000) {
                emit("{\"type\":\"problem\",\"option\":\"count\",\"message\":\"expected an integer from 1 to 1000\"}");
            }
            return 0;
        }

        /* GETs `url` through the host: the HTTP status, or -1 after emitting the source's error. */
        static int http_status(const char *url) {
            char request[700];
            snprintf(request, sizeof request, "{\"method\":\"GET\",\"url\":\"%s\"}", url);
            int32_t size = aggregate_http_request(request, (uint32_t)strlen(request));
            char *answer = malloc((size_t)size + 1);
            if (!answer) return -1;
            aggregate_result_read(answer, (uint32_t)size);
            answer[size] = 0;
            const char *status = strstr(answer, "\"status\":");
            int code = status ? (int)parse_long(status + 9) : -1;
            free(answer);
            if (code < 0) {
                /* A transport failure ({"error":{…}}): fail the source, as a network error. */
                emit("{\"type\":\"error\",\"kind\":\"network\",\"message\":\"the url could not be fetched\"}");
            }
            return code;
        }

        /* The source's load: emit its items, return 0. Anything else fails the source. */
        AGGREGATE_EXPORT("aggregate_run") int32_t aggregate_run(const char *input, uint32_t len) {
            (void)len;
            long count = option_int(input, "count", 3);
            char prefix[64] = "Item";
            option_string(input, "prefix", prefix, sizeof prefix);
            char url[512];
            int status = 0;
            if (option_string(input, "url", url, sizeof url) && (status = http_status(url)) < 0) return 1;
            char item[512];
            for (long n = 1; n <= count; n++) {
                snprintf(item, sizeof item,
                         "{\"type\":\"item\",\"id\":\"\#(name)-%ld\",\"title\":\"%s %ld\",\"fields\":{\"n\":%ld,\"status\":%d}}",
                         n, prefix, n, n, status);
                emit(item);
            }
            char line[64];
            snprintf(line, sizeof line, "emitted %ld items", count);
            log_info(line);
            return 0;
        }

        """#
    }

    static func buildScript(_ name: String) -> String {
        #"""
        #!/bin/sh
        # Builds \#(name).wasm from \#(name).c with the Swift toolchain's clang and Debian's wasi-libc (apt install wasi-libc):
        #   ./build.sh [OUTPUT]    (default: \#(name).wasm next to this script)
        # CLANG and WASI_SYSROOT override where they are looked for; CFLAGS adds flags.
        set -eu
        here="$(cd "$(dirname "$0")" && pwd)"
        out="${1:-$here/\#(name).wasm}"
        clang="${CLANG:-$(command -v /opt/swift/usr/bin/clang || command -v clang)}"
        sysroot="${WASI_SYSROOT:-/usr}"
        # A library with exports and no main (-mexec-model=reactor, --no-entry). -nostdlib and -lc: the toolchain's
        # clang ships no wasm32 compiler-rt, and this plugin needs none of it.
        exec "$clang" --target=wasm32-wasi --sysroot="$sysroot" -isystem "$sysroot/include/wasm32-wasi" \
            -L"$sysroot/lib/wasm32-wasi" -O2 -mexec-model=reactor -nostdlib -Wl,--no-entry \
            -I "$here" ${CFLAGS:-} "$here/\#(name).c" -lc -o "$out"

        """#
    }

    static func testScript(_ name: String) -> String {
        #"""
        #!/bin/sh
        # Builds \#(name).wasm and runs it through aggregate with manifest.json: its options pass `validate`, and its
        # three items come out with their titles. AGGREGATE names the binary (default: aggregate on PATH).
        set -eu
        here="$(cd "$(dirname "$0")" && pwd)"
        aggregate="${AGGREGATE:-aggregate}"
        "$here/build.sh"
        "$aggregate" validate --manifest "$here/manifest.json" >/dev/null
        titles="$("$aggregate" --manifest "$here/manifest.json" --format ndjson --jq .title)"
        expected="$(printf 'Item 1\nItem 2\nItem 3')"
        if [ "$titles" != "$expected" ]; then
            printf 'test.sh: expected the titles\n%s\ngot\n%s\n' "$expected" "$titles" >&2
            exit 1
        fi
        echo "ok: \#(name) emitted its 3 items"

        """#
    }

    static func manifest(_ name: String) -> String {
        #"""
        {
          "version": 1,
          "plugins": [
            {"name": "\#(name)", "module": "\#(name).wasm", "allowedHosts": []}
          ],
          "sources": [
            {"id": "\#(name)", "provider": "\#(name)", "options": {"count": 3}}
          ]
        }

        """#
    }
}
