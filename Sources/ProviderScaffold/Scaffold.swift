import Foundation

/// One file the scaffold writes, relative to the package root.
public struct GeneratedFile: Sendable, Hashable {
    public var path: String
    public var contents: String

    public init(path: String, contents: String) {
        self.path = path
        self.contents = contents
    }
}

/// A new provider target and its test target, ready to write into the package, with the manual steps
/// that remain (the `Package.swift` lines and the registration line).
public struct Scaffold: Sendable {
    public let name: ProviderName
    public let capability: Capability

    public init(name: ProviderName, capability: Capability) {
        self.name = name
        self.capability = capability
    }

    /// `Sources/<Name>Provider` and `Tests/<Name>ProviderTests`: the folders the scaffold owns.
    public var sourceDirectory: String { "Sources/\(name.targetName)" }
    public var testDirectory: String { "Tests/\(name.testTargetName)" }

    public var files: [GeneratedFile] {
        let template = capability.template(for: name)
        let type = name.typeName
        return [
            GeneratedFile(path: "\(sourceDirectory)/\(name.targetName).swift",
                          contents: ProviderFileTemplate.render(name, capability, template)),
            GeneratedFile(path: "\(sourceDirectory)/\(type)\(capability.repositoryNoun)Repository.swift",
                          contents: template.repositoryFile),
            GeneratedFile(path: "\(sourceDirectory)/DTO/\(type)ResponseDTO+Mapping.swift", contents: template.dtoFile),
            GeneratedFile(path: "\(testDirectory)/\(name.testTargetName).swift",
                          contents: TestFileTemplate.providerTests(name, capability, template)),
            GeneratedFile(path: "\(testDirectory)/\(type)ConformanceTests.swift",
                          contents: TestFileTemplate.conformanceTests(name, capability)),
            GeneratedFile(path: "\(testDirectory)/Fixtures/\(template.fixtureName)", contents: template.fixture),
            GeneratedFile(path: "\(testDirectory)/Fixtures/SOURCES.md", contents: TestFileTemplate.fixtureSources(name, template)),
        ]
    }

    /// The line for `Package.swift` under `// MARK: - Providers`.
    public var targetLine: String {
        #".target(name: "\#(name.targetName)", dependencies: ["Domain", "ProviderKit", "HTTPClient"]),"#
    }

    /// The line for `Package.swift` under `// MARK: - Tests`.
    public var testTargetLine: String {
        #".testTarget(name: "\#(name.testTargetName)", dependencies: ["\#(name.targetName)", "ProviderTesting", "ProviderKit", "Domain"], resources: [.copy("Fixtures")]),"#
    }

    /// The import and the entry for `ProviderRegistry.builtIn` in `Sources/App/ProviderRegistry.swift`.
    public var registryImport: String { "import \(name.targetName)" }
    public var registryEntry: String { "\(name.targetName)()," }

    /// What to do next, exactly: printed by the plugin after the files are written.
    public var nextSteps: String {
        """
        Next steps:
          1. Package.swift: under `// MARK: - Providers` add
                 \(targetLine)
             under `// MARK: - Tests` add
                 \(testTargetLine)
             and add "\(name.targetName)" to the dependencies of the "App" target.
          2. Sources/App/ProviderRegistry.swift: add `\(registryImport)` to the imports, and to `builtIn`
                 \(registryEntry)
          3. Run the new tests (AGGREGATE_ONLY builds just these targets and their dependencies):
                 AGGREGATE_ONLY=App,\(name.testTargetName) swift test --filter \(name.testTargetName)
          4. Then make it real: follow docs/WRITING_A_PROVIDER.md (recorded responses, DTO, errors).
             In a manifest: { "id": "\(name.providerName)", "provider": "\(name.providerName)", "options": { … } }
        """
    }

    /// Writes every file under `packageDirectory`, refusing when either target folder already exists (so
    /// nothing is ever overwritten). Returns the paths written, relative to the package.
    @discardableResult
    public func write(into packageDirectory: URL) throws(ScaffoldError) -> [String] {
        let fileManager = FileManager.default
        guard fileManager.fileExists(atPath: packageDirectory.appendingPathComponent("Package.swift").path) else {
            throw .notAPackage(packageDirectory.path)
        }
        for directory in [sourceDirectory, testDirectory]
        where fileManager.fileExists(atPath: packageDirectory.appendingPathComponent(directory).path) {
            throw .targetExists(directory)
        }
        return try GeneratedFile.write(files, into: packageDirectory)
    }
}

extension GeneratedFile {
    /// Writes `files` under `directory`, creating folders, never replacing a file. Returns their paths.
    static func write(_ files: [GeneratedFile], into directory: URL) throws(ScaffoldError) -> [String] {
        for file in files {
            let url = directory.appendingPathComponent(file.path)
            do {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(file.contents.utf8).write(to: url, options: .withoutOverwriting)
            } catch {
                throw .writeFailed(file.path, (error as NSError).localizedDescription)
            }
        }
        return files.map(\.path)
    }
}
