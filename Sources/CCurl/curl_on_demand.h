#ifndef AGGREGATE_CURL_ON_DEMAND_H
#define AGGREGATE_CURL_ON_DEMAND_H

#include "CCurl.h"

// libcurl's own variadic functions, loaded on demand (Linux only), for the typed wrappers in CCurl.c.
typedef CURLcode (*aggregate_curl_easy_setopt_type)(CURL *, CURLoption, ...);
typedef CURLcode (*aggregate_curl_easy_getinfo_type)(CURL *, CURLINFO, ...);
typedef CURLMcode (*aggregate_curl_multi_setopt_type)(CURLM *, CURLMoption, ...);

aggregate_curl_easy_setopt_type aggregate_curl_easy_setopt_function(void);
aggregate_curl_easy_getinfo_type aggregate_curl_easy_getinfo_function(void);
aggregate_curl_multi_setopt_type aggregate_curl_multi_setopt_function(void);

#endif
