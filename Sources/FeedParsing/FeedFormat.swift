/// The syndication format of a document, as told by its root element (never by a file extension: real
/// servers publish Atom under `.rss` names).
public enum FeedFormat: String, Sendable, Hashable, CaseIterable {
    /// `<rss>`: RSS 0.91, 0.92, 2.0.
    case rss
    /// `<feed>`: Atom 1.0 and 0.3.
    case atom
    /// `<rdf:RDF>`: RSS 1.0 and 0.90.
    case rdf
}
