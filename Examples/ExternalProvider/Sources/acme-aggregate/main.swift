import AggregateCLI
import AcmeProvider

// aggregate's whole command line (run, watch, serve, validate, providers, schema, …) with this package's
// providers beside the built-in ones: a manifest may name them, `acme-aggregate providers` lists their options.
AggregateCLI.main(providers: AggregateCLI.builtInProviders + [AcmeProvider()])
