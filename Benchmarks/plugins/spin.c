/* The plugin of the fuel-rate measurement (bench.py --fuel-rate): a loop that calls nothing, as a hostile or broken
 * plugin would, stopped only by its fuel. Built twice: as it is, the loop is a load, an add, a store and a branch
 * (a volatile counter); with -DEMPTY it is a lone branch, the shape that burns fuel slowest (one fuel check for
 * every operator). */
#include <stdint.h>

#include "aggregate.h"

static char input[4096];
static volatile uint32_t counter;

AGGREGATE_EXPORT("aggregate_alloc") void *aggregate_alloc(uint32_t len) { return len <= sizeof input ? input : 0; }

AGGREGATE_EXPORT("aggregate_run") int32_t aggregate_run(const char *json, uint32_t len) {
    (void)json;
    (void)len;
#ifdef EMPTY
    for (;;) {
    }
#else
    for (;;) counter++;
#endif
}
