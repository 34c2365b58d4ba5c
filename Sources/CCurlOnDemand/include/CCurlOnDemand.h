#ifndef CCURL_ON_DEMAND_H
#define CCURL_ON_DEMAND_H

// Nothing to call: the target defines the libcurl functions FoundationNetworking uses (curl_on_demand.c), and
// linking it in is all it takes.

#endif
