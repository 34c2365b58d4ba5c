// libcurl, loaded by the first transfer rather than at every start, so a run that makes no request never loads it
// or the libraries it needs (what that saves: BENCHMARKS.md, "Cold start"). The target links no libcurl; these are
// exactly the functions the transport and the sinks call, forwarding to the real ones, found with dlopen/dlsym once
// (CLibraryOnDemand). The variadic ones are reached only through CCurl.c's typed wrappers.
#if defined(__linux__)

#include "curl_on_demand.h"
#include "CLibraryOnDemand.h"

#define CURL_FUNCTIONS(X)                                                                                \
    X(curl_global_init) X(curl_easy_init) X(curl_easy_cleanup) X(curl_easy_reset) X(curl_easy_perform)   \
    X(curl_easy_setopt) X(curl_easy_getinfo) X(curl_easy_strerror) X(curl_slist_append)                  \
    X(curl_slist_free_all) X(curl_multi_init) X(curl_multi_add_handle) X(curl_multi_remove_handle)       \
    X(curl_multi_socket_action) X(curl_multi_info_read) X(curl_multi_setopt)

AGGREGATE_ON_DEMAND_LIBRARY(curl, CURL_FUNCTIONS, "HTTP", "libcurl4", "libcurl.so.4", "libcurl.so");
#define REAL(name) AGGREGATE_CALL(curl, name)

aggregate_curl_easy_setopt_type aggregate_curl_easy_setopt_function(void) { return REAL(curl_easy_setopt); }
aggregate_curl_easy_getinfo_type aggregate_curl_easy_getinfo_function(void) { return REAL(curl_easy_getinfo); }
aggregate_curl_multi_setopt_type aggregate_curl_multi_setopt_function(void) { return REAL(curl_multi_setopt); }

CURLcode curl_global_init(long flags) { return REAL(curl_global_init)(flags); }

CURL *curl_easy_init(void) { return REAL(curl_easy_init)(); }
void curl_easy_cleanup(CURL *easy) { REAL(curl_easy_cleanup)(easy); }
void curl_easy_reset(CURL *easy) { REAL(curl_easy_reset)(easy); }
CURLcode curl_easy_perform(CURL *easy) { return REAL(curl_easy_perform)(easy); }
const char *curl_easy_strerror(CURLcode code) { return REAL(curl_easy_strerror)(code); }

struct curl_slist *curl_slist_append(struct curl_slist *list, const char *string) {
    return REAL(curl_slist_append)(list, string);
}
void curl_slist_free_all(struct curl_slist *list) { REAL(curl_slist_free_all)(list); }

CURLM *curl_multi_init(void) { return REAL(curl_multi_init)(); }
CURLMcode curl_multi_add_handle(CURLM *multi, CURL *easy) { return REAL(curl_multi_add_handle)(multi, easy); }
CURLMcode curl_multi_remove_handle(CURLM *multi, CURL *easy) { return REAL(curl_multi_remove_handle)(multi, easy); }
CURLMcode curl_multi_socket_action(CURLM *multi, curl_socket_t socket, int events, int *running) {
    return REAL(curl_multi_socket_action)(multi, socket, events, running);
}
CURLMsg *curl_multi_info_read(CURLM *multi, int *queued) { return REAL(curl_multi_info_read)(multi, queued); }

#endif
