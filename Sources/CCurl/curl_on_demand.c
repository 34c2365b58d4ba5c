// libcurl, loaded by the first transfer rather than at every start: linked as usual, libcurl.so.4 and the 33
// libraries it needs (TLS, Kerberos, LDAP, SSH, IDN…) are loaded and relocated before main on every start, also
// by runs that never make a request (BENCHMARKS.md, "Cold start"). The target links no libcurl; these are the
// functions the transport and the sinks call, forwarding to the real ones, found with dlopen/dlsym once
// (CLibraryOnDemand). The variadic ones are reached only through CCurl.c's typed wrappers.
#if defined(__linux__)

#include "curl_on_demand.h"
#include "CLibraryOnDemand.h"

#define CURL_FUNCTIONS(X)                                                                                    \
    X(curl_global_init) X(curl_version) X(curl_version_info) X(curl_free) X(curl_easy_init)                  \
    X(curl_easy_cleanup) X(curl_easy_reset) X(curl_easy_perform) X(curl_easy_setopt) X(curl_easy_getinfo)   \
    X(curl_easy_strerror) X(curl_easy_pause) X(curl_slist_append) X(curl_slist_free_all) X(curl_multi_init) \
    X(curl_multi_cleanup) X(curl_multi_add_handle) X(curl_multi_remove_handle) X(curl_multi_perform)        \
    X(curl_multi_poll) X(curl_multi_wakeup) X(curl_multi_info_read) X(curl_multi_setopt)                    \
    X(curl_multi_strerror) X(curl_multi_assign) X(curl_multi_socket_action) X(curl_url) X(curl_url_cleanup) \
    X(curl_url_get) X(curl_url_set) X(curl_mime_init) X(curl_mime_free) X(curl_mime_addpart)                \
    X(curl_mime_name) X(curl_mime_filename) X(curl_mime_type) X(curl_mime_encoder) X(curl_mime_data)        \
    X(curl_mime_headers) X(curl_mime_subparts)

AGGREGATE_ON_DEMAND_LIBRARY(curl, CURL_FUNCTIONS, "HTTP", "libcurl4", "libcurl.so.4", "libcurl.so");
#define REAL(name) AGGREGATE_CALL(curl, name)

aggregate_curl_easy_setopt_type aggregate_curl_easy_setopt_function(void) { return REAL(curl_easy_setopt); }
aggregate_curl_easy_getinfo_type aggregate_curl_easy_getinfo_function(void) { return REAL(curl_easy_getinfo); }
aggregate_curl_multi_setopt_type aggregate_curl_multi_setopt_function(void) { return REAL(curl_multi_setopt); }

CURLcode curl_global_init(long flags) { return REAL(curl_global_init)(flags); }
char *curl_version(void) { return REAL(curl_version)(); }
curl_version_info_data *curl_version_info(CURLversion age) { return REAL(curl_version_info)(age); }
void curl_free(void *pointer) { REAL(curl_free)(pointer); }

CURL *curl_easy_init(void) { return REAL(curl_easy_init)(); }
void curl_easy_cleanup(CURL *easy) { REAL(curl_easy_cleanup)(easy); }
void curl_easy_reset(CURL *easy) { REAL(curl_easy_reset)(easy); }
CURLcode curl_easy_perform(CURL *easy) { return REAL(curl_easy_perform)(easy); }
const char *curl_easy_strerror(CURLcode code) { return REAL(curl_easy_strerror)(code); }
CURLcode curl_easy_pause(CURL *easy, int bitmask) { return REAL(curl_easy_pause)(easy, bitmask); }

struct curl_slist *curl_slist_append(struct curl_slist *list, const char *string) {
    return REAL(curl_slist_append)(list, string);
}
void curl_slist_free_all(struct curl_slist *list) { REAL(curl_slist_free_all)(list); }

CURLM *curl_multi_init(void) { return REAL(curl_multi_init)(); }
CURLMcode curl_multi_cleanup(CURLM *multi) { return REAL(curl_multi_cleanup)(multi); }
CURLMcode curl_multi_add_handle(CURLM *multi, CURL *easy) { return REAL(curl_multi_add_handle)(multi, easy); }
CURLMcode curl_multi_remove_handle(CURLM *multi, CURL *easy) { return REAL(curl_multi_remove_handle)(multi, easy); }
CURLMcode curl_multi_perform(CURLM *multi, int *running) { return REAL(curl_multi_perform)(multi, running); }
CURLMcode curl_multi_poll(CURLM *multi, struct curl_waitfd extra[], unsigned int count, int timeout, int *ready) {
    return REAL(curl_multi_poll)(multi, extra, count, timeout, ready);
}
CURLMcode curl_multi_wakeup(CURLM *multi) { return REAL(curl_multi_wakeup)(multi); }
CURLMsg *curl_multi_info_read(CURLM *multi, int *queued) { return REAL(curl_multi_info_read)(multi, queued); }
const char *curl_multi_strerror(CURLMcode code) { return REAL(curl_multi_strerror)(code); }
CURLMcode curl_multi_assign(CURLM *multi, curl_socket_t socket, void *pointer) {
    return REAL(curl_multi_assign)(multi, socket, pointer);
}
CURLMcode curl_multi_socket_action(CURLM *multi, curl_socket_t socket, int events, int *running) {
    return REAL(curl_multi_socket_action)(multi, socket, events, running);
}

CURLU *curl_url(void) { return REAL(curl_url)(); }
void curl_url_cleanup(CURLU *url) { REAL(curl_url_cleanup)(url); }
CURLUcode curl_url_get(CURLU *url, CURLUPart part, char **text, unsigned int flags) {
    return REAL(curl_url_get)(url, part, text, flags);
}
CURLUcode curl_url_set(CURLU *url, CURLUPart part, const char *text, unsigned int flags) {
    return REAL(curl_url_set)(url, part, text, flags);
}

curl_mime *curl_mime_init(CURL *easy) { return REAL(curl_mime_init)(easy); }
void curl_mime_free(curl_mime *mime) { REAL(curl_mime_free)(mime); }
curl_mimepart *curl_mime_addpart(curl_mime *mime) { return REAL(curl_mime_addpart)(mime); }
CURLcode curl_mime_name(curl_mimepart *part, const char *name) { return REAL(curl_mime_name)(part, name); }
CURLcode curl_mime_filename(curl_mimepart *part, const char *name) { return REAL(curl_mime_filename)(part, name); }
CURLcode curl_mime_type(curl_mimepart *part, const char *type) { return REAL(curl_mime_type)(part, type); }
CURLcode curl_mime_encoder(curl_mimepart *part, const char *encoding) { return REAL(curl_mime_encoder)(part, encoding); }
CURLcode curl_mime_data(curl_mimepart *part, const char *data, size_t size) {
    return REAL(curl_mime_data)(part, data, size);
}
CURLcode curl_mime_headers(curl_mimepart *part, struct curl_slist *headers, int take_ownership) {
    return REAL(curl_mime_headers)(part, headers, take_ownership);
}
CURLcode curl_mime_subparts(curl_mimepart *part, curl_mime *subparts) { return REAL(curl_mime_subparts)(part, subparts); }

#endif
