import FuzzSupport

// A closure, not `feedParserFuzzer` itself: naming the @_cdecl function here would emit its C symbol twice.
runLibFuzzer { data, size in feedParserFuzzer(data, size) }
