#ifndef CCURL_BODY_BATCHES_H
#define CCURL_BODY_BATCHES_H

#include "socket_events.h"

/// The value to give libcurl for `option` of the easy handle `easy`: the write and header callbacks and their
/// data are replaced by body_batches.c's own (which call the owner's), every other option is returned unchanged.
void *aggregate_body_batches_option(void *easy, int option, void *value, forward_option forward);
/// Called with each message curl_multi_info_read returns, before the owner sees it: a finished transfer's
/// gathered bytes are handed over.
void aggregate_body_batches_message(void *message);
/// The easy handle leaves its multi handle: what was gathered and not handed over is dropped.
void aggregate_body_batches_drop(void *easy);
/// Drops what was kept for `easy`, before libcurl cleans it up.
void aggregate_body_batches_forget(void *easy);

#endif
