import FuzzSupport

// A closure, not `recordReadersFuzzer` itself: naming the @_cdecl function here would emit its C symbol twice.
runLibFuzzer { data, size in recordReadersFuzzer(data, size) }
