#ifndef CLIBRARY_ON_DEMAND_H
#define CLIBRARY_ON_DEMAND_H

#include <pthread.h>

/// A system library loaded with `dlopen` by the first call that needs it rather than by the dynamic loader at
/// every start: a library and everything it needs cost every run their loading and relocation, also the runs
/// that never call them (BENCHMARKS.md, "Cold start"). The targets that forward a library's functions
/// (CCurlOnDemand, CLibXML2OnDemand, CJQ) each describe it once, statically, with this:
///
///     static const char *const sonames[] = {"libjq.so.1", "libjq.so", NULL};
///     static const char *const names[] = {"jq_init", …};
///     static void *symbols[sizeof names / sizeof *names];
///     static aggregate_library library = AGGREGATE_LIBRARY(sonames, names, symbols, "--jq", "libjq1");
///
/// and call `aggregate_library_symbol(&library, index)` in each forwarding definition.
typedef struct {
    const char *const *sonames;  // tried in order; NULL-terminated
    const char *const *names;    // the symbols, resolved together at the first call
    void **symbols;              // as many slots as names
    int count;
    const char *purpose;         // what needs it, for the message when it is missing ("HTTP", "feeds", "--jq")
    const char *package;         // the Debian package that installs it
    pthread_once_t once;
} aggregate_library;

#define AGGREGATE_LIBRARY(sonames, names, symbols, purpose, package) \
    { sonames, names, symbols, (int)(sizeof names / sizeof *names), purpose, package, PTHREAD_ONCE_INIT }

/// The symbol `names[index]`, loading the library (every symbol at once) by the first call. A library or a
/// symbol that cannot be found ends the process with status 70 and a line saying what to install: the run
/// needs a function it cannot have, and a partial answer would be a wrong one.
void *aggregate_library_symbol(aggregate_library *library, int index);

#endif
