// libcurl, loaded when the first URLSession transfer needs it rather than at every start.
//
// The static FoundationNetworking of a release build (--static-swift-stdlib) calls 23 libcurl functions. Linked
// as usual, libcurl.so.4 and the 33 libraries it needs (TLS, Kerberos, LDAP, SSH, IDN, ICU…) are loaded and
// relocated before main on every start, also by runs that never make a request: measured, that was a third of
// a tiny run's cold start (BENCHMARKS.md, "Round two (issue 20)"). HTTPClientLive is compiled with
// `-disable-autolink-library curl`, so nothing asks the linker for libcurl; these definitions satisfy
// FoundationNetworking's references instead and forward to the real functions, found with dlopen/dlsym once
// (CLibraryOnDemand).
//
// Where Foundation is linked dynamically (debug builds, macOS) these are never reached or merely forward to the
// libcurl already loaded. The variadic setopt/getinfo functions forward their one argument as a pointer-sized
// integer: libcurl reads it as a long, a pointer or a curl_off_t, all passed alike on the LP64 Linux ABIs
// (x86_64, aarch64) this file is built for.
#if defined(__linux__)

#include <stdarg.h>
#include "CCurlOnDemand.h"
#include "CLibraryOnDemand.h"
#include "body_batches.h"
#include "socket_events.h"

#define CURL_FUNCTIONS(X)                                                                                    \
    X(curl_global_init) X(curl_easy_init) X(curl_easy_cleanup) X(curl_easy_setopt) X(curl_easy_getinfo)     \
    X(curl_easy_pause) X(curl_easy_strerror) X(curl_free) X(curl_multi_add_handle) X(curl_multi_assign)     \
    X(curl_multi_cleanup) X(curl_multi_info_read) X(curl_multi_init) X(curl_multi_remove_handle)            \
    X(curl_multi_setopt) X(curl_multi_socket_action) X(curl_slist_append) X(curl_slist_free_all) X(curl_url) \
    X(curl_url_get) X(curl_url_set) X(curl_version) X(curl_version_info)

AGGREGATE_ON_DEMAND_LIBRARY(curl, CURL_FUNCTIONS, "HTTP", "libcurl4", "libcurl.so.4", "libcurl.so");

// Opaque handles and enums as libcurl declares them, by their ABI: pointers, int-sized enums and sockets.
typedef int (*int_long)(long);
typedef void *(*ptr_void)(void);
typedef void (*void_ptr)(void *);
typedef int (*int_ptr_int_word)(void *, int, void *);
typedef int (*int_ptr_int)(void *, int);
typedef const char *(*str_int)(int);
typedef int (*int_ptr_ptr)(void *, void *);
typedef int (*int_ptr_int_ptr)(void *, int, void *);
typedef int (*int_ptr)(void *);
typedef void *(*ptr_ptr_intptr)(void *, int *);
typedef int (*int_ptr_int_int_intptr)(void *, int, int, int *);
typedef void *(*ptr_ptr_str)(void *, const char *);
typedef int (*int_ptr_int_strptr_uint)(const void *, int, char **, unsigned int);
typedef int (*int_ptr_int_str_uint)(void *, int, const char *, unsigned int);
typedef char *(*str_void)(void);
typedef void *(*ptr_int)(int);

#define CALL(type, name) ((type)aggregate_library_symbol(&curl, index_##name))

int curl_global_init(long flags) { return CALL(int_long, curl_global_init)(flags); }
void *curl_easy_init(void) { return CALL(ptr_void, curl_easy_init)(); }
void curl_easy_cleanup(void *easy) {
    aggregate_body_batches_forget(easy);
    CALL(void_ptr, curl_easy_cleanup)(easy);
}

// setopt and getinfo take one more argument after the option: read as a pointer-sized word.
#define ONE_WORD_AFTER(last, value)                                     \
    void *value;                                                        \
    do {                                                                \
        va_list arguments;                                              \
        va_start(arguments, last);                                      \
        value = va_arg(arguments, void *);                              \
        va_end(arguments);                                              \
    } while (0)

int curl_easy_getinfo(void *easy, int info, ...) {
    ONE_WORD_AFTER(info, value);
    return CALL(int_ptr_int_word, curl_easy_getinfo)(easy, info, value);
}

static int set_easy_option(void *easy, int option, void *value) {
    return CALL(int_ptr_int_word, curl_easy_setopt)(easy, option, value);
}

// The write and header callbacks go through body_batches.c, which hands a response body over in fewer pieces.
int curl_easy_setopt(void *easy, int option, ...) {
    ONE_WORD_AFTER(option, value);
    return set_easy_option(easy, option, aggregate_body_batches_option(easy, option, value, set_easy_option));
}

static int set_multi_option(void *multi, int option, void *value) {
    return CALL(int_ptr_int_word, curl_multi_setopt)(multi, option, value);
}

// The socket callback goes through socket_events.c, which takes away the write interest FoundationNetworking keeps.
int curl_multi_setopt(void *multi, int option, ...) {
    ONE_WORD_AFTER(option, value);
    return set_multi_option(multi, option, aggregate_socket_events_option(multi, option, value, set_multi_option));
}

int curl_easy_pause(void *easy, int bitmask) { return CALL(int_ptr_int, curl_easy_pause)(easy, bitmask); }
const char *curl_easy_strerror(int code) { return CALL(str_int, curl_easy_strerror)(code); }
void curl_free(void *pointer) { CALL(void_ptr, curl_free)(pointer); }
int curl_multi_add_handle(void *multi, void *easy) { return CALL(int_ptr_ptr, curl_multi_add_handle)(multi, easy); }
int curl_multi_assign(void *multi, int socket, void *pointer) {
    return CALL(int_ptr_int_ptr, curl_multi_assign)(multi, socket, pointer);
}
int curl_multi_cleanup(void *multi) {
    int result = CALL(int_ptr, curl_multi_cleanup)(multi);
    aggregate_socket_events_forget(multi);
    return result;
}
void *curl_multi_info_read(void *multi, int *queued) {
    void *message = CALL(ptr_ptr_intptr, curl_multi_info_read)(multi, queued);
    aggregate_body_batches_message(message);
    return message;
}
void *curl_multi_init(void) { return CALL(ptr_void, curl_multi_init)(); }
int curl_multi_remove_handle(void *multi, void *easy) {
    aggregate_body_batches_drop(easy);
    return CALL(int_ptr_ptr, curl_multi_remove_handle)(multi, easy);
}

int curl_multi_socket_action(void *multi, int socket, int events, int *running) {
    return CALL(int_ptr_int_int_intptr, curl_multi_socket_action)(multi, socket, events, running);
}
void *curl_slist_append(void *list, const char *string) { return CALL(ptr_ptr_str, curl_slist_append)(list, string); }
void curl_slist_free_all(void *list) { CALL(void_ptr, curl_slist_free_all)(list); }
void *curl_url(void) { return CALL(ptr_void, curl_url)(); }
int curl_url_get(const void *url, int part, char **text, unsigned int flags) {
    return CALL(int_ptr_int_strptr_uint, curl_url_get)(url, part, text, flags);
}
int curl_url_set(void *url, int part, const char *text, unsigned int flags) {
    return CALL(int_ptr_int_str_uint, curl_url_set)(url, part, text, flags);
}
char *curl_version(void) { return CALL(str_void, curl_version)(); }
void *curl_version_info(int age) { return CALL(ptr_int, curl_version_info)(age); }

#endif
