#ifndef CLIBRARY_ON_DEMAND_H
#define CLIBRARY_ON_DEMAND_H

#include <pthread.h>

/// A system library loaded with `dlopen` by the first call that needs it rather than by the dynamic loader at
/// every start: a library and everything it needs cost every run their loading and relocation, also the runs
/// that never call them (BENCHMARKS.md, "Cold start"). The targets that forward a library's functions
/// (CCurlOnDemand, CLibXML2OnDemand, CJQ) each describe it once, with an X-macro of its symbols:
///
///     #define JQ_FUNCTIONS(X) X(jq_init) X(jq_compile) …
///     AGGREGATE_ON_DEMAND_LIBRARY(jq, JQ_FUNCTIONS, "--jq", "libjq1", "libjq.so.1", "libjq.so");
///     jq_state *jq_init(void) { return AGGREGATE_CALL(jq, jq_init)(); }
typedef struct {
    const char *const *sonames;  // tried in order; NULL-terminated
    const char *const *names;    // the symbols, resolved together at the first call
    void **symbols;              // as many slots as names
    int count;
    const char *purpose;         // what needs it, for the message when it is missing ("HTTP", "feeds", "--jq")
    const char *package;         // the Debian package that installs it
    pthread_once_t once;
} aggregate_library;

#define AGGREGATE_LIBRARY_INDEX(symbol) index_##symbol,
#define AGGREGATE_LIBRARY_NAME(symbol) #symbol,

/// `static aggregate_library variable` for the symbols `LIST` names (`LIST(X)` applies X to each), with an
/// `index_<symbol>` constant for each; the trailing arguments are the sonames to try, in order.
#define AGGREGATE_ON_DEMAND_LIBRARY(variable, LIST, purpose, package, ...)                                  \
    enum { LIST(AGGREGATE_LIBRARY_INDEX) };                                                                 \
    static const char *const variable##_sonames[] = {__VA_ARGS__, NULL};                                    \
    static const char *const variable##_names[] = {LIST(AGGREGATE_LIBRARY_NAME)};                          \
    static void *variable##_symbols[sizeof variable##_names / sizeof *variable##_names];                    \
    static aggregate_library variable = {                                                                   \
        variable##_sonames, variable##_names, variable##_symbols,                                           \
        (int)(sizeof variable##_names / sizeof *variable##_names), purpose, package, PTHREAD_ONCE_INIT}

/// The library's own `symbol`, typed as the declaration in scope (the library's header) says.
#define AGGREGATE_CALL(variable, symbol) ((__typeof__(&symbol))aggregate_library_symbol(&variable, index_##symbol))

/// The symbol `names[index]`, loading the library (every symbol at once) by the first call. A library or a
/// symbol that cannot be found ends the process with status 70 and a line saying what to install: the run
/// needs a function it cannot have, and a partial answer would be a wrong one.
void *aggregate_library_symbol(aggregate_library *library, int index);

#endif
