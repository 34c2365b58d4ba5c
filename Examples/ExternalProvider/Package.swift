// swift-tools-version: 6.1
// The Acme provider for aggregate, in a package of its own (made by `new-provider --standalone`):
// the provider, its tests on aggregate's conformance kit, and `acme-aggregate`, the aggregate command line
// with this provider beside the built-in ones. aggregate is a dependency by version (CHANGELOG.md there says
// what a minor and a major release may change).
import PackageDescription

let package = Package(
    name: "acme-provider",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "AcmeProvider", targets: ["AcmeProvider"]),
        .executable(name: "acme-aggregate", targets: ["acme-aggregate"]),
    ],
    dependencies: [
        .package(url: "https://example.com/aggregate.git", from: "0.10.0"),
    ],
    targets: [
        // MARK: - Providers
        .target(name: "AcmeProvider", dependencies: [.product(name: "ProviderKit", package: "aggregate")]),

        // MARK: - CLI
        .executableTarget(name: "acme-aggregate", dependencies: [
            "AcmeProvider",
            .product(name: "AggregateCLI", package: "aggregate"),
        ]),

        // MARK: - Tests
        .testTarget(name: "AcmeProviderTests", dependencies: [
            "AcmeProvider",
            .product(name: "ProviderKit", package: "aggregate"),
            .product(name: "ProviderTesting", package: "aggregate"),
        ], resources: [.copy("Fixtures")]),
    ],
    swiftLanguageModes: [.v6]
)
