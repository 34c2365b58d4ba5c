import Foundation
import ProviderTesting
import Testing

@Suite("Scratch directories for tests")
struct ScratchDirectoryTests {
    @Test("paths are new each time, all under this process's directory; make creates an empty directory")
    func pathsAndDirectories() throws {
        let first = ScratchDirectory.path("probe")
        let second = ScratchDirectory.path("probe", suffix: ".json")
        #expect(first != second)
        #expect(ScratchDirectory.root.lastPathComponent == "aggregate-tests-\(getpid())")
        #expect(first.deletingLastPathComponent().path == ScratchDirectory.root.path)
        #expect(second.lastPathComponent.hasPrefix("probe-") && second.pathExtension == "json")
        #expect(!FileManager.default.fileExists(atPath: first.path))

        let made = try ScratchDirectory.make("probe")
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: made.path, isDirectory: &isDirectory) && isDirectory.boolValue)
        #expect(try FileManager.default.contentsOfDirectory(atPath: made.path).isEmpty)
    }
}
