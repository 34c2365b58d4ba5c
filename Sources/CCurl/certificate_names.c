// The server certificate's subject and issuer, recorded during the handshake by an OpenSSL verify callback
// (CCurl.h, aggregate_curl_record_certificate). OpenSSL is the one libcurl already loaded: its functions are looked
// up in it (RTLD_NOLOAD), never linked, so a run without HTTPS loads nothing more.
#include "CCurl.h"

#include <string.h>

#if defined(__linux__)
#include <dlfcn.h>
#include <pthread.h>

typedef struct ssl_ctx_st SSL_CTX;
typedef struct ssl_st SSL;
typedef struct x509_store_ctx_st X509_STORE_CTX;
typedef struct x509_st X509;
typedef struct X509_name_st X509_NAME;
typedef int (*verify_callback)(int, X509_STORE_CTX *);

static struct {
    int (*ctx_get_verify_mode)(const SSL_CTX *);
    void (*ctx_set_verify)(SSL_CTX *, int, verify_callback);
    int (*ctx_set_ex_data)(SSL_CTX *, int, void *);
    void *(*ctx_get_ex_data)(const SSL_CTX *, int);
    int (*ssl_store_index)(void);
    void *(*store_get_ex_data)(const X509_STORE_CTX *, int);
    SSL_CTX *(*ssl_get_ctx)(const SSL *);
    X509 *(*store_get0_cert)(const X509_STORE_CTX *);
    X509_NAME *(*get_subject)(const X509 *);
    X509_NAME *(*get_issuer)(const X509 *);
    char *(*name_oneline)(const X509_NAME *, char *, int);
    int found;
} openssl;

static pthread_once_t openssl_once = PTHREAD_ONCE_INIT;

static void find_openssl(void) {
    void *handle = dlopen("libssl.so.3", RTLD_NOW | RTLD_NOLOAD);
    if (handle == NULL) handle = dlopen("libssl.so.1.1", RTLD_NOW | RTLD_NOLOAD);
    if (handle == NULL) return;
#define FIND(field, name) *(void **)&openssl.field = dlsym(handle, name); if (openssl.field == NULL) return;
    FIND(ctx_get_verify_mode, "SSL_CTX_get_verify_mode")
    FIND(ctx_set_verify, "SSL_CTX_set_verify")
    FIND(ctx_set_ex_data, "SSL_CTX_set_ex_data")
    FIND(ctx_get_ex_data, "SSL_CTX_get_ex_data")
    FIND(ssl_store_index, "SSL_get_ex_data_X509_STORE_CTX_idx")
    FIND(store_get_ex_data, "X509_STORE_CTX_get_ex_data")
    FIND(ssl_get_ctx, "SSL_get_SSL_CTX")
    FIND(store_get0_cert, "X509_STORE_CTX_get0_cert")
    FIND(get_subject, "X509_get_subject_name")
    FIND(get_issuer, "X509_get_issuer_name")
    FIND(name_oneline, "X509_NAME_oneline")
#undef FIND
    openssl.found = 1;
}

// "/C=DE/O=Example/CN=localhost" as "C=DE, O=Example, CN=localhost".
static void copy_name(const X509_NAME *name, char *into, size_t size) {
    char line[256];
    if (name == NULL || openssl.name_oneline(name, line, (int)sizeof line) == NULL) return;
    size_t at = 0;
    for (const char *c = line[0] == '/' ? line + 1 : line; *c != '\0' && at + 3 < size; c++) {
        if (*c == '/') {
            into[at++] = ',';
            into[at++] = ' ';
        } else {
            into[at++] = *c;
        }
    }
    into[at] = '\0';
}

// The SSL_CTX's application-data slot (index 0) carries the names to fill; libcurl leaves it unused.
static int record(int verified, X509_STORE_CTX *store) {
    SSL *ssl = openssl.store_get_ex_data(store, openssl.ssl_store_index());
    aggregate_curl_certificate_names *names = ssl ? openssl.ctx_get_ex_data(openssl.ssl_get_ctx(ssl), 0) : NULL;
    X509 *leaf = openssl.store_get0_cert(store);
    if (names != NULL && leaf != NULL) {
        copy_name(openssl.get_subject(leaf), names->subject, sizeof names->subject);
        copy_name(openssl.get_issuer(leaf), names->issuer, sizeof names->issuer);
    }
    return verified;  // the decision stays OpenSSL's and libcurl's
}

static CURLcode prepare_context(CURL *easy, void *context, void *names) {
    (void)easy;
    pthread_once(&openssl_once, find_openssl);
    if (!openssl.found) return CURLE_OK;
    openssl.ctx_set_ex_data(context, 0, names);
    openssl.ctx_set_verify(context, openssl.ctx_get_verify_mode(context), record);
    return CURLE_OK;
}

void aggregate_curl_record_certificate(CURL *easy, aggregate_curl_certificate_names *names) {
    memset(names, 0, sizeof *names);
    aggregate_curl_easy_setopt_pointer(easy, CURLOPT_SSL_CTX_DATA, names);
    aggregate_curl_easy_setopt_pointer(easy, CURLOPT_SSL_CTX_FUNCTION, (void *)prepare_context);
}

#else

void aggregate_curl_record_certificate(CURL *easy, aggregate_curl_certificate_names *names) {
    (void)easy;
    memset(names, 0, sizeof *names);
}

#endif
