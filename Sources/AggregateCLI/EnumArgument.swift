import ArgumentParser

/// An option whose values are an enum's raw strings (`-f table|json|…`, `--sort`, `--dedupe`).
///
/// argument-parser's own `allValueStrings` and `allValueDescriptions` for such an enum build a generic key path
/// (`\.rawValue.defaultValueDescription`) on every call, and every parse calls them many times. These give the
/// same lists (the help and the completion scripts are unchanged) from the raw values directly. (What the key
/// paths cost: BENCHMARKS.md, "Cold start, round three".)
protocol EnumArgument: ExpressibleByArgument, CaseIterable, RawRepresentable where RawValue == String {}

extension EnumArgument {
    public static var allValueStrings: [String] { allCases.map { $0.rawValue } }
    /// Empty, as argument-parser's is for an enum whose values describe themselves by their raw value.
    public static var allValueDescriptions: [String: String] { [:] }
}
