#ifndef CCURL_SOCKET_EVENTS_H
#define CCURL_SOCKET_EVENTS_H

/// Sets one option on a multi handle in libcurl itself.
typedef int (*forward_option)(void *multi, int option, void *value);

/// The value to give libcurl for `option` of `multi`: the socket callback and its data are replaced by
/// socket_events.c's own (which calls the owner's), every other option is returned unchanged.
void *aggregate_socket_events_option(void *multi, int option, void *value, forward_option forward);
/// Drops what was kept for `multi`, after libcurl has cleaned it up.
void aggregate_socket_events_forget(void *multi);

#endif
