#include "CLibraryOnDemand.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

// pthread_once takes a function without an argument; the library being loaded is handed over through this
// thread's slot, set just before (the once routine runs on the calling thread).
static _Thread_local aggregate_library *loading;

static void load(void) {
    aggregate_library *library = loading;
    void *handle = NULL;
    for (const char *const *soname = library->sonames; *soname != NULL && handle == NULL; soname++) {
        handle = dlopen(*soname, RTLD_NOW | RTLD_LOCAL);
    }
    if (handle == NULL) {
        const char *reason = dlerror();
        fprintf(stderr, "aggregate: %s needs %s, which cannot be loaded (%s); install it (Debian: apt-get install %s)\n",
                library->purpose, library->sonames[0], reason ? reason : "not found", library->package);
        exit(70);
    }
    for (int i = 0; i < library->count; i++) {
        library->symbols[i] = dlsym(handle, library->names[i]);
        if (library->symbols[i] == NULL) {
            fprintf(stderr, "aggregate: the %s installed has no %s; install a newer %s\n",
                    library->sonames[0], library->names[i], library->package);
            exit(70);
        }
    }
}

void *aggregate_library_symbol(aggregate_library *library, int index) {
    loading = library;
    pthread_once(&library->once, load);
    return library->symbols[index];
}
