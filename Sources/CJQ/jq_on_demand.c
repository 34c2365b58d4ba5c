// libjq, loaded when `--jq` first compiles a filter rather than at every start: with libonig it costs every run
// its loading and relocation otherwise (BENCHMARKS.md, "Cold start"). The target links no libjq; these are the
// functions CJQ.c calls, forwarding to the real ones, found with dlopen/dlsym once (CLibraryOnDemand).
#if defined(__linux__)

#include <jq.h>
#include <jv.h>

#include "CLibraryOnDemand.h"

#define JQ_FUNCTIONS(X)                                                                                       \
    X(jq_compile) X(jq_format_error) X(jq_get_error_message) X(jq_get_exit_code) X(jq_halt) X(jq_halted)      \
    X(jq_init) X(jq_next) X(jq_set_error_cb) X(jq_start) X(jq_teardown) X(jv_copy) X(jv_dump_string)          \
    X(jv_free) X(jv_get_kind) X(jv_invalid) X(jv_invalid_get_msg) X(jv_invalid_has_msg) X(jv_null)            \
    X(jv_number_value) X(jv_parse_sized) X(jv_string_length_bytes) X(jv_string_value)

AGGREGATE_ON_DEMAND_LIBRARY(jq, JQ_FUNCTIONS, "--jq", "libjq1", "libjq.so.1", "libjq.so");
#define REAL(name) AGGREGATE_CALL(jq, name)

int jq_compile(jq_state *state, const char *program) { return REAL(jq_compile)(state, program); }
jv jq_format_error(jv message) { return REAL(jq_format_error)(message); }
jv jq_get_error_message(jq_state *state) { return REAL(jq_get_error_message)(state); }
jv jq_get_exit_code(jq_state *state) { return REAL(jq_get_exit_code)(state); }
void jq_halt(jq_state *state, jv exit_code, jv message) { REAL(jq_halt)(state, exit_code, message); }
int jq_halted(jq_state *state) { return REAL(jq_halted)(state); }
jq_state *jq_init(void) { return REAL(jq_init)(); }
jv jq_next(jq_state *state) { return REAL(jq_next)(state); }
void jq_set_error_cb(jq_state *state, jq_msg_cb callback, void *data) { REAL(jq_set_error_cb)(state, callback, data); }
void jq_start(jq_state *state, jv value, int flags) { REAL(jq_start)(state, value, flags); }
void jq_teardown(jq_state **state) { REAL(jq_teardown)(state); }
jv jv_copy(jv value) { return REAL(jv_copy)(value); }
jv jv_dump_string(jv value, int flags) { return REAL(jv_dump_string)(value, flags); }
void jv_free(jv value) { REAL(jv_free)(value); }
jv_kind jv_get_kind(jv value) { return REAL(jv_get_kind)(value); }
jv jv_invalid(void) { return REAL(jv_invalid)(); }
jv jv_invalid_get_msg(jv value) { return REAL(jv_invalid_get_msg)(value); }
int jv_invalid_has_msg(jv value) { return REAL(jv_invalid_has_msg)(value); }
jv jv_null(void) { return REAL(jv_null)(); }
double jv_number_value(jv value) { return REAL(jv_number_value)(value); }
jv jv_parse_sized(const char *text, int length) { return REAL(jv_parse_sized)(text, length); }
int jv_string_length_bytes(jv value) { return REAL(jv_string_length_bytes)(value); }
const char *jv_string_value(jv value) { return REAL(jv_string_value)(value); }

#endif
