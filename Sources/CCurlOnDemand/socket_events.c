// FoundationNetworking's libcurl socket callback, with the write interest it forgets taken away.
//
// libcurl tells its multi handle's owner which readiness to wait for on each socket (CURLMOPT_SOCKETFUNCTION):
// in, out, both, or none, and remove. swift-corelibs-foundation's URLSession answers with a Dispatch read
// source and a write source, but only ever adds them: once libcurl has asked for "out" (to connect, or to send
// a request), the write source stays until the socket is removed. A connected socket can always be written,
// so for the whole wait for the answer the source fires again and again, and each firing hands the socket to
// libcurl, which finds nothing to do: measured, ~40 thread wake-ups a millisecond for one request in flight
// (strace), and on 1,000 feeds at 64 in flight a quarter of the run's CPU in the kernel and the Dispatch
// manager (BENCHMARKS.md, "Round six").
//
// The callback below stands between the two. When libcurl drops "out" from a socket that had it, the owner is
// told to remove the socket (its sources are cancelled, its record released), libcurl forgets the record, and
// the owner is told of the socket again with what libcurl now wants, so it makes only the sources needed.
// Everything else passes through unchanged.
#if defined(__linux__)

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include "socket_events.h"

enum { poll_none = 0, poll_in = 1, poll_out = 2, poll_remove = 4 };
enum { option_socket_data = 10002, option_socket_function = 20001 };

typedef int (*socket_function)(void *easy, int socket, int what, void *user, void *record);

int curl_multi_assign(void *multi, int socket, void *pointer);

/// The owner's callback and data for one multi handle (libcurl hands `user` back to the callback).
typedef struct multi_owner {
    void *multi;
    socket_function callback;
    void *data;
    struct multi_owner *next;
} multi_owner;

static pthread_mutex_t owners_lock = PTHREAD_MUTEX_INITIALIZER;
static multi_owner *owners;

/// What each socket was last registered for, by descriptor; higher descriptors pass through unchanged.
enum { tracked_sockets = 1 << 16 };
static _Atomic unsigned char registered[tracked_sockets];

static multi_owner *owner_of(void *multi) {
    pthread_mutex_lock(&owners_lock);
    multi_owner *owner = owners;
    while (owner != NULL && owner->multi != multi) owner = owner->next;
    if (owner == NULL && (owner = calloc(1, sizeof *owner)) != NULL) {
        owner->multi = multi;
        owner->next = owners;
        owners = owner;
    }
    pthread_mutex_unlock(&owners_lock);
    return owner;
}

static int socket_event(void *easy, int socket, int what, void *user, void *record) {
    multi_owner *owner = user;
    if (socket < 0 || socket >= tracked_sockets) return owner->callback(easy, socket, what, owner->data, record);
    int previous = atomic_exchange(&registered[socket], (unsigned char)(what == poll_remove ? poll_none : what));
    int dropsOut = (previous & poll_out) && !(what & poll_out) && what != poll_remove;
    if (!dropsOut || record == NULL) return owner->callback(easy, socket, what, owner->data, record);
    owner->callback(easy, socket, poll_remove, owner->data, record);
    curl_multi_assign(owner->multi, socket, NULL);
    return what == poll_none ? 0 : owner->callback(easy, socket, what, owner->data, NULL);
}

void *aggregate_socket_events_option(void *multi, int option, void *value, forward_option forward) {
    if (option != option_socket_function && option != option_socket_data) return value;
    multi_owner *owner = owner_of(multi);
    if (owner == NULL) return value;  // out of memory: the owner's own callback, as without this file
    if (option == option_socket_data) {
        owner->data = value;
        return owner;
    }
    owner->callback = (socket_function)value;
    forward(multi, option_socket_data, owner);
    return value == NULL ? NULL : (void *)socket_event;
}

void aggregate_socket_events_forget(void *multi) {
    pthread_mutex_lock(&owners_lock);
    for (multi_owner **link = &owners; *link != NULL; link = &(*link)->next) {
        if ((*link)->multi == multi) {
            multi_owner *owner = *link;
            *link = owner->next;
            free(owner);
            break;
        }
    }
    pthread_mutex_unlock(&owners_lock);
}

#endif
