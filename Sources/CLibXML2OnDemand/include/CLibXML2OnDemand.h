#ifndef CLIBXML2_ON_DEMAND_H
#define CLIBXML2_ON_DEMAND_H

// Nothing to call: the target defines the libxml2 functions FeedParsing uses (libxml2_on_demand.c), and linking
// it in is all it takes.

#endif
