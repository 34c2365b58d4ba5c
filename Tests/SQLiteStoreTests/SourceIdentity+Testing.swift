import Domain

extension SourceIdentity {
    /// An identity for tests: the id and a fingerprint derived from it.
    static func testing(_ id: String) -> SourceIdentity { SourceIdentity(id: id, fingerprint: "fp-\(id)") }
}
