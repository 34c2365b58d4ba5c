import Domain
import FilesProvider
import Foundation

/// The readers take a file, so each input is written once to a per-process file in shared memory.
let inputURL = URL(fileURLWithPath: FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory())
    .appendingPathComponent("aggregate-fuzz-\(getpid()).input")

/// The fuzzed function: any bytes as a CSV, an NDJSON and a JSON file (the last through the files
/// provider's own JSON parser). A thrown `SourceError` is the expected outcome for junk; a crash, a hang or a
/// sanitizer report is a bug.
@_cdecl("LLVMFuzzerTestOneInput")
public func recordReadersFuzzer(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start else { return 0 }
    guard (try? Data(bytes: start, count: count).write(to: inputURL)) != nil else { return 0 }
    let cancellation = CancellationToken()
    let readers: [any RecordFileReader] = [CSVFileReader(), CSVFileReader(delimiter: UInt8(ascii: ";")), NDJSONFileReader(), JSONFileReader()]
    for reader in readers {
        try? reader.readRows(at: inputURL, cancellation: cancellation) { _ in }
    }
    return 0
}
