/* The plugin of the fixed-cost benchmark (bench.py): instantiated, called, returns. Built by bench.py with the
 * C example's flags (clang --target=wasm32-wasi, wasi-libc). */
#include <stdint.h>

#include "aggregate.h"

static char input[4096];

AGGREGATE_EXPORT("aggregate_alloc") void *aggregate_alloc(uint32_t len) { return len <= sizeof input ? input : 0; }

AGGREGATE_EXPORT("aggregate_run") int32_t aggregate_run(const char *json, uint32_t len) {
    (void)json;
    (void)len;
    return 0;
}
