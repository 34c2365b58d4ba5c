#include "CJQ.h"

#include <jq.h>
#include <jv.h>
#include <stdlib.h>
#include <string.h>

struct aggregate_jq_filter {
    jq_state *jq;
};

static void append(aggregate_jq_buffer *buffer, const char *bytes, size_t length) {
    if (buffer->length + length + 1 > buffer->capacity) {
        size_t capacity = buffer->capacity ? buffer->capacity : 256;
        while (capacity < buffer->length + length + 1) capacity *= 2;
        char *grown = realloc(buffer->bytes, capacity);
        if (!grown) abort();  // as libjq itself does when memory runs out
        buffer->bytes = grown;
        buffer->capacity = capacity;
    }
    memcpy(buffer->bytes + buffer->length, bytes, length);
    buffer->length += length;
    buffer->bytes[buffer->length] = 0;
}

void aggregate_jq_buffer_free(aggregate_jq_buffer *buffer) {
    free(buffer->bytes);
    buffer->bytes = NULL;
    buffer->length = buffer->capacity = 0;
}

/// jq's own `default_err_cb`, writing to a buffer instead of stderr. Owns `message`.
static void collect_error(void *data, jv message) {
    jv formatted = jq_format_error(message);
    append(data, jv_string_value(formatted), (size_t)jv_string_length_bytes(jv_copy(formatted)));
    append(data, "\n", 1);
    jv_free(formatted);
}

aggregate_jq_filter *aggregate_jq_compile(const char *program, aggregate_jq_buffer *messages) {
    jq_state *jq = jq_init();
    if (!jq) {
        append(messages, "jq: error: cannot allocate memory\n", 34);
        return NULL;
    }
    jq_set_error_cb(jq, collect_error, messages);
    if (!jq_compile(jq, program)) {
        jq_teardown(&jq);
        return NULL;
    }
    // Run-time messages (`stderr`, `input`'s errors) must not point at the caller's buffer after this call.
    jq_set_error_cb(jq, NULL, NULL);
    aggregate_jq_filter *filter = malloc(sizeof *filter);
    if (!filter) abort();
    filter->jq = jq;
    return filter;
}

void aggregate_jq_free(aggregate_jq_filter *filter) {
    if (!filter) return;
    jq_teardown(&filter->jq);
    free(filter);
}

static void append_string(aggregate_jq_buffer *buffer, jv string) {  // borrows `string`
    append(buffer, jv_string_value(string), (size_t)jv_string_length_bytes(jv_copy(string)));
}

/// One JSON text as jq's input; an invalid value (freed already) when it is not JSON, `messages` saying why.
static jv parse_input(const char *json, size_t length, aggregate_jq_buffer *messages) {
    jv input = jv_parse_sized(json, (int)length);
    if (jv_is_valid(input)) return input;
    jv message = jv_invalid_get_msg(input);  // consumes input
    if (jv_get_kind(message) == JV_KIND_STRING) append_string(messages, message);
    jv_free(message);
    return jv_invalid();
}

/// Appends the message of the uncaught error `result` carries (borrowed): a string as it is, anything else as
/// its JSON. Returns 1 when it was JSON.
static int append_error(aggregate_jq_buffer *messages, jv result) {
    jv message = jv_invalid_get_msg(jv_copy(result));
    int is_json = jv_get_kind(message) != JV_KIND_STRING;
    if (is_json) {
        jv text = jv_dump_string(jv_copy(message), 0);
        append_string(messages, text);
        jv_free(text);
    } else {
        append_string(messages, message);
    }
    jv_free(message);
    return is_json;
}

/// jq 1.6's reset (the start of every run) frees a halt's exit code and message but keeps pointing at them, so the
/// reset after the next run that does not halt frees them again: a use after free that corrupts the heap (valgrind
/// shows it on `select(.a == 3) | halt_error(2)` over {"a":3}, {"a":1}, {"a":1}; jq 1.7's reset forgets them).
/// Called once a halt was read: one reset frees them, and a halt with invalid values, which are not counted, leaves
/// the next reset nothing to free twice. Harmless where the reset is right.
static void forget_halt(jq_state *jq) {
    jq_start(jq, jv_null(), 0);  // consumes the null
    jq_halt(jq, jv_invalid(), jv_invalid());
}

aggregate_jq_status aggregate_jq_run(
    aggregate_jq_filter *filter, const char *json, size_t length, int compact, aggregate_jq_buffer *output,
    aggregate_jq_buffer *messages, int *exit_code) {
    *exit_code = 0;
    jv input = parse_input(json, length, messages);
    if (!jv_is_valid(input)) return AGGREGATE_JQ_BAD_INPUT;
    int flags = compact ? 0 : JV_PRINT_INDENT_FLAGS(2);
    jq_set_error_cb(filter->jq, collect_error, messages);
    jq_start(filter->jq, input, 0);  // consumes input
    jv result;
    while (jv_is_valid(result = jq_next(filter->jq))) {
        if (jv_get_kind(result) == JV_KIND_STRING) {
            append_string(output, result);
            jv_free(result);
        } else {
            jv text = jv_dump_string(result, flags);  // consumes result
            append_string(output, text);
            jv_free(text);
        }
        append(output, "\n", 1);
    }
    aggregate_jq_status status = AGGREGATE_JQ_OK;
    if (jq_halted(filter->jq)) {
        // As jq's main: the exit code is the halt's, and halt_error's message goes out as it is (a string)
        // or as JSON with a newline.
        jv code = jq_get_exit_code(filter->jq);
        *exit_code = !jv_is_valid(code) ? 0 : jv_get_kind(code) == JV_KIND_NUMBER ? (int)jv_number_value(code) : 5;
        jv_free(code);
        jv message = jq_get_error_message(filter->jq);
        if (jv_get_kind(message) == JV_KIND_STRING) {
            append_string(messages, message);
        } else if (jv_get_kind(message) != JV_KIND_NULL && jv_is_valid(message)) {
            jv text = jv_dump_string(jv_copy(message), 0);
            append_string(messages, text);
            append(messages, "\n", 1);
            jv_free(text);
        }
        jv_free(message);
        forget_halt(filter->jq);
        status = AGGREGATE_JQ_HALTED;
    } else if (jv_invalid_has_msg(jv_copy(result))) {
        // 1 tells the caller the message is JSON, as jq's "(not a string)" does.
        *exit_code = append_error(messages, result);
        status = AGGREGATE_JQ_ERROR;
    }
    jv_free(result);
    jq_set_error_cb(filter->jq, NULL, NULL);
    return status;
}

int aggregate_jq_keeps(aggregate_jq_filter *filter, const char *json, size_t length, aggregate_jq_buffer *messages) {
    jv input = parse_input(json, length, messages);
    if (!jv_is_valid(input)) return -AGGREGATE_JQ_BAD_INPUT;
    jq_set_error_cb(filter->jq, collect_error, messages);
    jq_start(filter->jq, input, 0);  // consumes input
    int status = 0;
    jv result;
    while (jv_is_valid(result = jq_next(filter->jq))) {
        jv_kind kind = jv_get_kind(result);
        jv_free(result);
        if (kind != JV_KIND_FALSE && kind != JV_KIND_NULL) {
            status = 1;
            break;
        }
    }
    if (status == 1) {
        // Stopped at the first result that keeps: nothing further is asked of the program.
    } else if (jq_halted(filter->jq)) {
        append(messages, "the program halted", 18);
        forget_halt(filter->jq);
        status = -AGGREGATE_JQ_HALTED;
    } else if (jv_invalid_has_msg(jv_copy(result))) {
        append_error(messages, result);
        status = -AGGREGATE_JQ_ERROR;
    }
    if (status != 1) jv_free(result);
    jq_set_error_cb(filter->jq, NULL, NULL);
    return status;
}
