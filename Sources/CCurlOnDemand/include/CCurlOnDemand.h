#ifndef CCURL_ON_DEMAND_H
#define CCURL_ON_DEMAND_H

/// Whether libcurl is loaded in this process yet (it is loaded by the first URLSession transfer). For tests and
/// `--verbose`; calling it never loads libcurl.
int ccurl_on_demand_is_loaded(void);

#endif
