// The CLibXML2 module is its header (include/shim.h): libxml2's API with the few inline helpers Swift needs. A C
// target needs one source file; this one checks that the header compiles on its own.
#include "shim.h"
