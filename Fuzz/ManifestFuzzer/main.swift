import FuzzSupport

// A closure, not `manifestFuzzer` itself: naming the @_cdecl function here would emit its C symbol twice.
runLibFuzzer { data, size in manifestFuzzer(data, size) }
