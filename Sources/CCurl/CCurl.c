// The typed wrappers around libcurl's variadic functions (CCurl.h). On Linux they call the functions
// curl_on_demand.c loads; on macOS the linked library's.
#include "CCurl.h"

#if defined(__linux__)
#include "curl_on_demand.h"
#define EASY_SETOPT aggregate_curl_easy_setopt_function()
#define EASY_GETINFO aggregate_curl_easy_getinfo_function()
#define MULTI_SETOPT aggregate_curl_multi_setopt_function()
#else
#define EASY_SETOPT curl_easy_setopt
#define EASY_GETINFO curl_easy_getinfo
#define MULTI_SETOPT curl_multi_setopt
#endif

CURLcode aggregate_curl_easy_setopt_long(CURL *easy, CURLoption option, long value) {
    return EASY_SETOPT(easy, option, value);
}
CURLcode aggregate_curl_easy_setopt_off_t(CURL *easy, CURLoption option, curl_off_t value) {
    return EASY_SETOPT(easy, option, value);
}
CURLcode aggregate_curl_easy_setopt_string(CURL *easy, CURLoption option, const char *value) {
    return EASY_SETOPT(easy, option, value);
}
CURLcode aggregate_curl_easy_setopt_pointer(CURL *easy, CURLoption option, void *value) {
    return EASY_SETOPT(easy, option, value);
}
CURLcode aggregate_curl_easy_setopt_data_callback(CURL *easy, CURLoption option, curl_write_callback callback) {
    return EASY_SETOPT(easy, option, callback);
}
CURLcode aggregate_curl_easy_setopt_xferinfo_callback(CURL *easy, CURLoption option, curl_xferinfo_callback callback) {
    return EASY_SETOPT(easy, option, callback);
}

CURLcode aggregate_curl_easy_getinfo_long(CURL *easy, CURLINFO info, long *value) {
    return EASY_GETINFO(easy, info, value);
}
CURLcode aggregate_curl_easy_getinfo_off_t(CURL *easy, CURLINFO info, curl_off_t *value) {
    return EASY_GETINFO(easy, info, value);
}
CURLcode aggregate_curl_easy_getinfo_double(CURL *easy, CURLINFO info, double *value) {
    return EASY_GETINFO(easy, info, value);
}
CURLcode aggregate_curl_easy_getinfo_string(CURL *easy, CURLINFO info, const char **value) {
    return EASY_GETINFO(easy, info, value);
}
CURLcode aggregate_curl_easy_getinfo_pointer(CURL *easy, CURLINFO info, void **value) {
    return EASY_GETINFO(easy, info, value);
}

CURLMcode aggregate_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return MULTI_SETOPT(multi, option, value);
}
CURLMcode aggregate_curl_multi_setopt_pointer(CURLM *multi, CURLMoption option, void *value) {
    return MULTI_SETOPT(multi, option, value);
}
CURLMcode aggregate_curl_multi_setopt_socket_callback(CURLM *multi, curl_socket_callback callback) {
    return MULTI_SETOPT(multi, CURLMOPT_SOCKETFUNCTION, callback);
}
CURLMcode aggregate_curl_multi_setopt_timer_callback(CURLM *multi, curl_multi_timer_callback callback) {
    return MULTI_SETOPT(multi, CURLMOPT_TIMERFUNCTION, callback);
}

CURLcode aggregate_curl_message_result(const CURLMsg *message) { return message->data.result; }
