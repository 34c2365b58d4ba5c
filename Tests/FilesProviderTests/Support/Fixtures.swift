import Foundation
import ProviderTesting

extension ScratchDirectory.Folder {
    /// Copies a fixture of this test target into the directory under `path`.
    func copyFixture(_ name: String, to path: String) throws {
        try write(path, try Data(contentsOf: try fixtureURL(name)))
    }
}

func fixtureURL(_ name: String) throws -> URL {
    guard let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures") else {
        throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "Fixtures/\(name)"])
    }
    return url
}
