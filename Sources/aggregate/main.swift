import AggregateCLI

// The command line lives in the AggregateCLI library, so a custom binary with more providers is this one line too.
AggregateCLI.main()
