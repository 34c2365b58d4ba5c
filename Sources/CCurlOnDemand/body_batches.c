// A response body handed to FoundationNetworking in a few large pieces instead of libcurl's 16 KB ones.
//
// libcurl calls its write callback with at most 16 KB at a time (CURL_MAX_WRITE_SIZE, whatever the buffer
// size). swift-corelibs-foundation's URLSession pays a fixed price for every call: it makes a new Dispatch timer
// for the request's timeout (waking the Dispatch manager thread), updates the task's counters, and hands the
// piece to the session delegate through an OperationQueue (waking another thread). A 48 KB feed cost three of
// each; a 1 MB API answer, sixty-four.
//
// The callbacks below stand between the two for each easy handle. Body bytes are gathered per transfer and handed
// over when a batch is full (`batch_size`), before the transfer's next header line (trailers, a second response), and
// when libcurl reports the transfer done (curl_multi_info_read), which is before the owner learns it is done.
// A handle taken off its multi handle before that (the owner's own timeout) drops what was gathered: the owner
// no longer wants it. So the owner sees the same bytes, in the same order, only in fewer calls.
//
// All callbacks of one easy handle run on the thread that drives its multi handle, and the owner reads the
// done messages on that thread too; the table of handles is shared by all multi handles, hence its lock.
#if defined(__linux__)

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "body_batches.h"

enum { option_write_data = 10001, option_write_function = 20011, option_header_data = 10029,
       option_header_function = 20079 };
enum { message_done = 1 };
/// Up to this much is gathered before the owner is called (a feed, most API answers: once).
enum { batch_size = 128 * 1024 };

typedef size_t (*write_function)(char *bytes, size_t size, size_t count, void *data);

/// One easy handle: its owner's callbacks and the body bytes not handed over yet.
typedef struct batch {
    void *easy;
    write_function write;
    void *write_data;
    write_function header;
    void *header_data;
    char *bytes;
    size_t length;
    size_t capacity;
    struct batch *next;
} batch;

enum { bucket_count = 256 };
static pthread_mutex_t batches_lock = PTHREAD_MUTEX_INITIALIZER;
static batch *buckets[bucket_count];

static size_t bucket_of(void *easy) { return ((size_t)easy >> 4) % bucket_count; }

static batch *find(void *easy, int create) {
    pthread_mutex_lock(&batches_lock);
    batch *found = buckets[bucket_of(easy)];
    while (found != NULL && found->easy != easy) found = found->next;
    if (found == NULL && create && (found = calloc(1, sizeof *found)) != NULL) {
        found->easy = easy;
        found->next = buckets[bucket_of(easy)];
        buckets[bucket_of(easy)] = found;
    }
    pthread_mutex_unlock(&batches_lock);
    return found;
}

/// Hands the gathered bytes to the owner; false when it refused them (the transfer is then aborted).
static int hand_over(batch *batch) {
    size_t length = batch->length;
    batch->length = 0;
    if (length == 0 || batch->write == NULL) return 1;  // nothing gathered, or the owner took its callback away
    return batch->write(batch->bytes, 1, length, batch->write_data) == length;
}

/// Drops the buffer: a transfer is over, and its easy handle may live on for a while.
static void release_bytes(batch *batch) {
    free(batch->bytes);
    batch->bytes = NULL;
    batch->length = 0;
    batch->capacity = 0;
}

static size_t write_body(char *bytes, size_t size, size_t count, void *data) {
    batch *batch = data;
    size_t length = size * count;
    if (batch->length + length > batch_size && !hand_over(batch)) return 0;
    if (batch->length + length > batch->capacity) {
        size_t capacity = batch->capacity == 0 ? 16 * 1024 : batch->capacity;
        while (capacity < batch->length + length) capacity *= 2;
        char *grown = length < batch_size ? realloc(batch->bytes, capacity) : NULL;
        if (grown == NULL) {  // a piece as large as a batch, or out of memory: gathered bytes first, then this
            if (!hand_over(batch)) return 0;
            return batch->write(bytes, size, count, batch->write_data);
        }
        batch->bytes = grown;
        batch->capacity = capacity;
    }
    memcpy(batch->bytes + batch->length, bytes, length);
    batch->length += length;
    return length;
}

static size_t write_header(char *bytes, size_t size, size_t count, void *data) {
    batch *batch = data;
    if (!hand_over(batch)) return 0;
    return batch->header(bytes, size, count, batch->header_data);
}

void *aggregate_body_batches_option(void *easy, int option, void *value, forward_option forward) {
    int isWrite = option == option_write_function || option == option_write_data;
    int isHeader = option == option_header_function || option == option_header_data;
    if (!isWrite && !isHeader) return value;
    batch *batch = find(easy, 1);
    if (batch == NULL) return value;  // out of memory: the owner's own callbacks, as without this file
    switch (option) {
    case option_write_data: batch->write_data = value; return batch->write == NULL ? value : batch;
    case option_header_data: batch->header_data = value; return batch->header == NULL ? value : batch;
    case option_write_function:
        batch->write = (write_function)value;
        forward(easy, option_write_data, value == NULL ? batch->write_data : batch);
        return value == NULL ? NULL : (void *)write_body;
    default:
        batch->header = (write_function)value;
        forward(easy, option_header_data, value == NULL ? batch->header_data : batch);
        return value == NULL ? NULL : (void *)write_header;
    }
}

void aggregate_body_batches_message(void *message) {
    // CURLMsg: the message kind (an int-sized enum), then the easy handle.
    struct { int kind; void *easy; } const *done = message;
    if (done == NULL || done->kind != message_done) return;
    batch *batch = find(done->easy, 0);
    if (batch == NULL) return;
    hand_over(batch);
    release_bytes(batch);
}

void aggregate_body_batches_drop(void *easy) {
    batch *batch = find(easy, 0);
    if (batch != NULL) release_bytes(batch);
}

void aggregate_body_batches_forget(void *easy) {
    pthread_mutex_lock(&batches_lock);
    for (batch **link = &buckets[bucket_of(easy)]; *link != NULL; link = &(*link)->next) {
        if ((*link)->easy == easy) {
            batch *found = *link;
            *link = found->next;
            free(found->bytes);
            free(found);
            break;
        }
    }
    pthread_mutex_unlock(&batches_lock);
}

#endif
