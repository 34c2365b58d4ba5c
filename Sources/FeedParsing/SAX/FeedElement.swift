/// The elements the feed handler acts on, whatever prefix a document gives their namespace.
///
/// RSS 0.9x/2.0 (no namespace), RSS 1.0 and 0.90 (their RDF namespaces) share the RSS names; Atom 1.0 and
/// 0.3 share the Atom names. Everything else is `other` and only its text or children may matter.
enum FeedElement: UInt8 {
    // Roots and containers
    case rss, rdfRoot, atomFeed, channel, item, atomEntry, image, textInput, rdfItems, rssSource
    // RSS
    case title, link, description, guid, pubDate, author, category, enclosure
    // Atom
    case atomTitle, atomLink, atomID, atomSummary, atomContent, atomPublished, atomUpdated, atomIssued,
        atomModified, atomCreated, atomAuthor, atomName, atomEmail, atomCategory, atomSource
    // Modules
    case contentEncoded, dcCreator, dcDate, dcSubject, dcTitle, dcDescription, dctermsIssued, dctermsModified,
        dctermsCreated
    case other

    /// The namespaces we recognise, by URI.
    enum Namespace {
        case none, rss, atom, dc, dcterms, content, rdf, other

        init(uri: String?) {
            switch uri {
            case nil, "": self = .none
            case "http://purl.org/rss/1.0/", "http://my.netscape.com/rdf/simple/0.9/",
                "http://channel.netscape.com/rdf/simple/0.9/", "http://backend.userland.com/rss2",
                "http://backend.userland.com/rss":
                self = .rss
            case "http://www.w3.org/2005/Atom", "http://purl.org/atom/ns#": self = .atom
            case "http://purl.org/dc/elements/1.1/", "http://purl.org/dc/elements/1.0/": self = .dc
            case "http://purl.org/dc/terms/": self = .dcterms
            case "http://purl.org/rss/1.0/modules/content/": self = .content
            case "http://www.w3.org/1999/02/22-rdf-syntax-ns#": self = .rdf
            default: self = .other
            }
        }

        /// Prefixes feeds use without declaring them (`dc:creator` in an RSS 2.0 feed with no `xmlns:dc`).
        init(undeclaredPrefix prefix: Substring) {
            switch prefix {
            case "dc": self = .dc
            case "dcterms": self = .dcterms
            case "content": self = .content
            case "rdf": self = .rdf
            case "atom", "atom10", "atom03": self = .atom
            default: self = .other
            }
        }
    }

    /// - Parameter atomDocument: whether elements in no namespace are Atom's (an Atom feed that forgot its
    ///   `xmlns`) rather than RSS's.
    static func classify(namespace: Namespace, local: Substring, atomDocument: Bool) -> FeedElement {
        switch namespace {
        case .none: atomDocument ? atom(local) : rss(local)
        case .rss: rss(local)
        case .atom: atom(local)
        case .dc:
            switch local {
            case "creator": .dcCreator
            case "date": .dcDate
            case "subject": .dcSubject
            case "title": .dcTitle
            case "description": .dcDescription
            default: .other
            }
        case .dcterms:
            switch local {
            case "issued": .dctermsIssued
            case "modified": .dctermsModified
            case "created": .dctermsCreated
            default: .other
            }
        case .content: local == "encoded" ? .contentEncoded : .other
        case .rdf: local == "RDF" ? .rdfRoot : .other
        case .other: .other
        }
    }

    private static func rss(_ local: Substring) -> FeedElement {
        switch local {
        case "rss": .rss
        case "channel": .channel
        case "item": .item
        case "title": .title
        case "link": .link
        case "description": .description
        case "guid": .guid
        case "pubDate": .pubDate
        case "author": .author
        case "category": .category
        case "enclosure": .enclosure
        case "image": .image
        case "textinput", "textInput": .textInput
        case "items": .rdfItems
        case "source": .rssSource
        case "feed": .atomFeed  // a root `feed` with no namespace: Atom that forgot its xmlns
        default: .other
        }
    }

    private static func atom(_ local: Substring) -> FeedElement {
        switch local {
        case "feed": .atomFeed
        case "entry": .atomEntry
        case "title": .atomTitle
        case "link": .atomLink
        case "id": .atomID
        case "summary": .atomSummary
        case "content": .atomContent
        case "published": .atomPublished
        case "updated": .atomUpdated
        case "issued": .atomIssued
        case "modified": .atomModified
        case "created": .atomCreated
        case "author": .atomAuthor
        case "name": .atomName
        case "email": .atomEmail
        case "category": .atomCategory
        case "source": .atomSource
        default: .other
        }
    }
}
