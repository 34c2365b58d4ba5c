import App
import Foundation

/// The fuzzed function: any bytes as a manifest. Problems (thrown or collected) are the expected outcome
/// for junk; a crash, a hang or a sanitizer report is a bug.
@_cdecl("LLVMFuzzerTestOneInput")
public func manifestFuzzer(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start else { return 0 }
    let data = Data(bytes: start, count: count)
    _ = try? ManifestLoader.parseCollecting(
        data, baseDirectory: URL(fileURLWithPath: "/tmp"), providers: ProviderRegistry.builtIn.names)
    return 0
}
