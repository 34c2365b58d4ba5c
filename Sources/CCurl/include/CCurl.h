#ifndef AGGREGATE_CCURL_H
#define AGGREGATE_CCURL_H

/// The system's libcurl, for the HTTP transport (HTTPClientLive) and the email sink. On Linux the library is
/// loaded by the first call (curl_on_demand.c, CLibraryOnDemand), not by every start; on macOS it is linked as
/// usual (it ships with the OS).
///
/// `curl_easy_setopt`, `curl_easy_getinfo` and `curl_multi_setopt` are variadic, which Swift cannot call: use the
/// typed `aggregate_curl_*` wrappers below. Every other libcurl function is called by its own name.
#define CURL_DISABLE_TYPECHECK 1

#if defined(__has_include)
#if !__has_include(<curl/curl.h>)
#error "aggregate needs libcurl's headers: install libcurl4-openssl-dev (Debian/Ubuntu: apt-get install libcurl4-openssl-dev; Fedora: libcurl-devel)"
#endif

#endif

#include <curl/curl.h>

#if defined(__linux__)
// HTTPClientLive's loop waits on the sockets libcurl names with epoll, and is woken through an eventfd.
#include <sys/epoll.h>
#include <sys/eventfd.h>
#endif

// MARK: - Easy handle options
CURLcode aggregate_curl_easy_setopt_long(CURL *easy, CURLoption option, long value);
CURLcode aggregate_curl_easy_setopt_off_t(CURL *easy, CURLoption option, curl_off_t value);
/// A string (libcurl copies it) or NULL to reset the option.
CURLcode aggregate_curl_easy_setopt_string(CURL *easy, CURLoption option, const char *value);
/// Any other pointer: an `curl_slist *`, a `curl_mime *`, a callback's user data, a body libcurl does not copy.
CURLcode aggregate_curl_easy_setopt_pointer(CURL *easy, CURLoption option, void *value);
/// `CURLOPT_WRITEFUNCTION`, `CURLOPT_HEADERFUNCTION` and `CURLOPT_READFUNCTION` share this shape.
CURLcode aggregate_curl_easy_setopt_data_callback(CURL *easy, CURLoption option, curl_write_callback callback);
CURLcode aggregate_curl_easy_setopt_xferinfo_callback(CURL *easy, CURLoption option, curl_xferinfo_callback callback);

// MARK: - Easy handle information
CURLcode aggregate_curl_easy_getinfo_long(CURL *easy, CURLINFO info, long *value);
CURLcode aggregate_curl_easy_getinfo_off_t(CURL *easy, CURLINFO info, curl_off_t *value);
CURLcode aggregate_curl_easy_getinfo_double(CURL *easy, CURLINFO info, double *value);
/// A string owned by the handle (`CURLINFO_EFFECTIVE_URL`, `CURLINFO_PRIVATE` as text).
CURLcode aggregate_curl_easy_getinfo_string(CURL *easy, CURLINFO info, const char **value);
/// Any other pointer: `CURLINFO_CERTINFO` (`struct curl_certinfo *`), `CURLINFO_PRIVATE`.
CURLcode aggregate_curl_easy_getinfo_pointer(CURL *easy, CURLINFO info, void **value);

// MARK: - Multi handle options
CURLMcode aggregate_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value);
CURLMcode aggregate_curl_multi_setopt_pointer(CURLM *multi, CURLMoption option, void *value);
/// `CURLMOPT_SOCKETFUNCTION`: which sockets to watch, and for what.
CURLMcode aggregate_curl_multi_setopt_socket_callback(CURLM *multi, curl_socket_callback callback);
/// `CURLMOPT_TIMERFUNCTION`: when libcurl next needs `curl_multi_socket_action(…, CURL_SOCKET_TIMEOUT, …)`.
CURLMcode aggregate_curl_multi_setopt_timer_callback(CURLM *multi, curl_multi_timer_callback callback);

// MARK: - Messages
/// The result of a finished transfer (`CURLMsg.data.result`, a member of an anonymous union).
CURLcode aggregate_curl_message_result(const CURLMsg *message);


// MARK: - The server's certificate
/// The subject and issuer of the certificate a server presented (its leaf), as `CN=localhost, O=Example`.
typedef struct {
    char subject[256];
    char issuer[256];
} aggregate_curl_certificate_names;

/// Has the transfer record the server certificate's names in `names` during the TLS handshake, whether or not
/// verification then accepts it: libcurl's CURLOPT_CERTINFO is filled only after a handshake succeeded, and the
/// certificates worth naming are the ones that failed. Uses CURLOPT_SSL_CTX_FUNCTION, so only where libcurl is
/// built on OpenSSL (Debian's and Fedora's libcurl); elsewhere `names` stays empty. `names` must outlive the
/// transfer.
void aggregate_curl_record_certificate(CURL *easy, aggregate_curl_certificate_names *names);

#endif
