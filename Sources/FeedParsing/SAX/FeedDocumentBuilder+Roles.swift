import Domain
import Foundation

/// What each element is for, given the container it appears in: the feed-format knowledge of the builder.
extension FeedDocumentBuilder {
    mutating func startRoot(_ element: FeedElement, name: String) -> Role {
        switch element {
        case .rss:
            format = .rss
            return .container(.rssRoot)
        case .rdfRoot:
            format = .rdf
            return .container(.rdfRoot)
        case .atomFeed:
            format = .atom
            atomDocument = true
            names.forgetClassifiedNames()
            return .container(.channel)
        default:
            stopReason = .notAFeed(name)
            return .passive
        }
    }

    mutating func role(of element: FeedElement, attributes: XMLAttributes) -> Role {
        switch contexts.last {
        case .rssRoot?, .rdfRoot?:
            switch element {
            case .channel: return .container(.channel)
            case .item: return .container(.entry)
            case .image, .textInput: return .container(.skip)
            default: return .passive
            }
        case .channel?:
            switch element {
            case .title, .atomTitle: return .field(.feedTitle)
            case .link: return .field(.feedLink)
            case .atomLink:
                guard let href = attributes["href"] else { return .passive }
                let rel = attributes["rel"]
                if rel == "self", selfLink == nil, let url = FeedText.url(href, base: currentBase),
                    url.scheme == "http" || url.scheme == "https"
                {
                    selfLink = url
                    resolvedBase = nil
                } else if feedLink == nil, Self.isAlternate(rel) {
                    feedLink = FeedText.url(href, base: currentBase)
                    resolvedBase = nil
                }
                return .passive
            case .item, .atomEntry: return .container(.entry)
            case .atomAuthor: return .container(.author)
            case .image, .textInput, .rdfItems, .atomSource: return .container(.skip)
            default: return .passive
            }
        case .entry?:
            return entryRole(of: element, attributes: attributes)
        case .author?:
            switch element {
            case .atomName: return .field(entry == nil ? .feedAuthorName : .authorName)
            case .atomEmail: return .field(.authorEmail)
            default: return .passive
            }
        case .skip?, nil:
            return .passive
        }
    }

    mutating func resolve(_ text: String) -> URL? {
        FeedText.url(text, base: currentBase)
    }

    mutating func entryRole(of element: FeedElement, attributes: XMLAttributes) -> Role {
        switch element {
        case .item, .atomEntry:
            // An entry inside an entry: the outer one waits until the inner one ends (`finishEntry` decides).
            suspendedEntry = entry.take()
            return .container(.entry)
        case .title, .atomTitle: return .field(.title)
        case .dcTitle: return .field(.dcTitle)
        case .link: return .field(.link)
        case .atomLink:
            if let href = attributes["href"] {
                let rel = attributes["rel"]
                if Self.isAlternate(rel), entry?.link == nil {
                    let url = resolve(href)
                    entry?.link = url
                } else if rel == "enclosure", entry?.enclosure == nil {
                    let url = resolve(href)
                    entry?.enclosure = url
                }
            }
            return .passive
        case .guid: return .field(.guid)
        case .atomID: return .field(.atomID)
        case .description, .atomSummary: return .field(.summary)
        case .dcDescription: return .field(.dcDescription)
        case .contentEncoded, .atomContent: return .field(.content)
        case .author, .dcCreator: return .field(.author)
        case .atomAuthor: return .container(.author)
        case .category, .dcSubject: return .field(.category)
        case .atomCategory:
            if let term = attributes["label"] ?? attributes["term"], !term.isEmpty { entry?.categories.append(term) }
            return .passive
        case .enclosure:
            if entry?.enclosure == nil, let text = attributes["url"] {
                let url = resolve(text)
                entry?.enclosure = url
            }
            return .passive
        case .pubDate, .atomPublished: return .field(.published(rank: 4))
        case .atomIssued, .dctermsIssued: return .field(.published(rank: 3))
        case .dcDate: return .field(.published(rank: 2))
        case .atomCreated, .dctermsCreated: return .field(.published(rank: 1))
        case .atomUpdated: return .field(.updated(rank: 3))
        case .atomModified, .dctermsModified: return .field(.updated(rank: 2))
        case .atomSource, .rssSource: return .container(.skip)
        default: return .passive
        }
    }

    static func isAlternate(_ rel: String?) -> Bool { rel == nil || rel == "alternate" || rel == "" }
}
