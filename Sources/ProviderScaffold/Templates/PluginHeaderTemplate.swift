/// The plugin ABI's C header, as `Examples/plugins/include/aggregate.h` holds it (a test keeps the two the same): a
/// scaffolded plugin carries its own copy, so it builds outside this repository.
enum PluginHeaderTemplate {
    static let fileName = "aggregate.h"

    static let contents = #"""
/* aggregate plugin ABI, version 1 (docs/PLUGINS.md).
 *
 * A plugin is a wasm32 module that exports `memory`, `aggregate_alloc` and `aggregate_run` (and, optionally,
 * `aggregate_check`), and imports what it uses from module "aggregate_v1" below. Every pointer is an offset
 * into the plugin's own memory; the host checks each one before reading or writing.
 */
#ifndef AGGREGATE_PLUGIN_H
#define AGGREGATE_PLUGIN_H

#include <stdint.h>

#define AGGREGATE_IMPORT(name) __attribute__((import_module("aggregate_v1"), import_name(name)))
#define AGGREGATE_EXPORT(name) __attribute__((export_name(name)))

/* ---- Imports (host functions) ---- */

/* One message, a JSON object of `len` bytes:
 *   {"type":"item","id":"…","title":"…","subtitle":"…","url":"https://…","date":"2026-11-22T10:00:00Z","fields":{…}}
 *   {"type":"warning","message":"…"}                 shown with the source's report; the source still succeeds
 *   {"type":"error","message":"…","kind":"notFound"}  the source fails with it (kind: SourceError's, default badResponse)
 *   {"type":"problem","option":"city","message":"…"} an option problem, from aggregate_check only
 * A message that is not one of these fails the source. */
AGGREGATE_IMPORT("emit") void aggregate_emit(const char *json, uint32_t len);

/* A line for --verbose (level 0 debug, 1 info, 2 warning). Counts against maxOutputBytes like emit. */
AGGREGATE_IMPORT("log") void aggregate_log(int32_t level, const char *text, uint32_t len);

/* Sends one HTTP request through the host, a JSON object of `len` bytes:
 *   {"method":"GET","url":"https://api.acme.example/v1/x","headers":{"Accept":"application/json"},"body":"…",
 *    "credentials":[{"header":"Authorization","name":"token","prefix":"Bearer "}]}
 * Only the plugin's allowedHosts are reachable (another host fails the source). A credential is a name from the
 * source's options.credentials: the host adds its value; the plugin never sees it.
 * Returns the length of the answer, read with aggregate_result_read:
 *   {"status":200,"headers":{"content-type":"…"},"body":"…"}  or  {"error":{"kind":"network","message":"…"}} */
AGGREGATE_IMPORT("http_request") int32_t aggregate_http_request(const char *json, uint32_t len);

/* Copies the pending answer (of http_request or state_get) into `buffer` (at least its length) and drops it.
 * Returns the bytes copied. */
AGGREGATE_IMPORT("result_read") int32_t aggregate_result_read(char *buffer, uint32_t capacity);

/* The source's persisted value for `key`: its length (read it with aggregate_result_read), or -1 when unset. */
AGGREGATE_IMPORT("state_get") int32_t aggregate_state_get(const char *key, uint32_t key_len);

/* Sets `key` (1–256 bytes) to `value` (at most 64 KiB; at most 64 keys). Kept when the run succeeds. */
AGGREGATE_IMPORT("state_set") void aggregate_state_set(const char *key, uint32_t key_len, const char *value, uint32_t value_len);

/* ---- Exports (the plugin defines these) ----
 *
 * AGGREGATE_EXPORT("aggregate_alloc") void *aggregate_alloc(uint32_t len);
 *     `len` bytes the host writes the input into (malloc is fine).
 * AGGREGATE_EXPORT("aggregate_run") int32_t aggregate_run(const char *input, uint32_t len);
 *     The source's load. `input` is one JSON object:
 *       {"abi":1,"source":"…","options":{…},"query":null,"since":null,"credentials":["token"],
 *        "allowedHosts":["…"],"limits":{"fuel":…,"memoryPages":…,"maxOutputBytes":…,"timeoutSeconds":…}}
 *     Return 0 on success; anything else fails the source (with the error it emitted, if any).
 * AGGREGATE_EXPORT("aggregate_check") int32_t aggregate_check(const char *input, uint32_t len);   (optional)
 *     The same input; emit a "problem" message per bad option. No HTTP here.
 */

#endif
"""# + "\n"
}
