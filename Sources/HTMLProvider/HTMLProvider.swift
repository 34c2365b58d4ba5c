import Domain
import FeedParsing
import Foundation
import HTTPClient
import ProviderKit

/// `"provider": "html"`: entries of web pages that have no feed, picked out by XPath 1.0.
///
///     { "id": "news", "provider": "html",
///       "options": { "urls": ["https://example.org/news"], "items": "//article",
///                    "fields": { "title": ".//h2", "link": ".//a/@href", "date": ".//time/@datetime" } } }
///
/// `items` selects one node per entry; each of `fields` is evaluated with that node as the context node. Items
/// are the feed provider's: `kind: "entry"`, `title`, `subtitle` = the page's `<title>`, `url` = the resolved link,
/// `date`, and `fields` (`feedTitle`, `summary`, `published`/`publishedRaw`, `image`, `categories`). Pages are
/// fetched and read concurrently (the source's `concurrency`), items page by page in the order the options list
/// them. A page that fails is a warning naming it while the others still count; a page where `items` matches
/// nothing is a warning too (the page has changed), never a quiet empty result.
///
/// Every expression is compiled and tried on an empty page when the manifest is loaded: a bad one (syntax, an
/// unknown function, an `items` that gives no node set) is a manifest error naming its option and libxml2's
/// reason. What only a real page reveals is reported by the run: an `items` that libxml2 cannot evaluate there
/// fails the source; a field that fails on some items is one warning per page naming the field and the reason.
public struct HTMLProvider: Provider {
    public static let defaultMaxItemsPerPage = 50

    public init() {}

    public var name: String { "html" }

    public var summary: String { "Entries picked out of web pages (or local HTML files) by XPath, for sites without a feed" }

    public var options: [OptionSpec] { Self.optionSpecs }

    private static let fieldNames = HTMLExtraction.Field.allCases.map(\.rawValue)

    private static let optionSpecs: [OptionSpec] = {
        DocumentLocations.specs("HTML", plural: "pages") + [
            OptionSpec("items", "string (XPath 1.0)", required: true, shape: .string,
                       help: "Selects one node per item, e.g. //article or //tr[@class='athing']."),
            OptionSpec("fields", "object of strings", default: "title ← first heading or link, link ← first href",
                       shape: .record(Dictionary(uniqueKeysWithValues: fieldNames.map { ($0, OptionShape.string) }), required: []),
                       help: "XPath expressions relative to the item node: " + fieldNames.joined(separator: ", ")
                           + ". link and image resolve against <base href> and the page URL; id defaults to the link."),
            OptionSpec("dateFormat", "string", default: "feed date formats (RFC 822, ISO 8601, …)",
                       help: "A date pattern for fields.date (Unicode TR35: dd.MM.yyyy HH:mm), read in UTC unless it has a zone."),
            OptionSpec("maxItemsPerPage", "integer ≥ 1", default: String(Self.defaultMaxItemsPerPage),
                       identity: .tuning, help: "Items kept from each page, from its top; a cap that drops items warns."),
            DocumentLocations.tagsSpec(help: " (as the feed provider's)."),
        ] + HTTPSourceOptions.explicitURLSpecs
    }()

    public func makeSource(_ configuration: SourceConfiguration) throws(ManifestError) -> any ItemSource {
        let reader = OptionsReader(configuration, specs: options)
        let locations = DocumentLocations.read(reader, noun: "page")
        let items = reader.require("items", as: String.self)
        if let items { check(items, at: "items", selectsNodes: true, reader) }
        var fields: [HTMLExtraction.Field: String] = [:]
        for (key, expression) in reader.value("fields", as: [String: String].self) ?? [:] {
            guard let field = HTMLExtraction.Field(rawValue: key) else {
                reader.problem("fields.\(key)", "unknown field; expected one of \(Self.fieldNames.joined(separator: ", "))")
                continue
            }
            check(expression, at: "fields.\(key)", selectsNodes: false, reader)
            fields[field] = expression
        }
        let dateFormat = reader.value("dateFormat", as: String.self)
        if let dateFormat, dateFormat.trimmingCharacters(in: .whitespaces).isEmpty {
            reader.problem("dateFormat", "a date pattern cannot be empty")
        }
        let maxItems = reader.value("maxItemsPerPage", as: Int.self) ?? Self.defaultMaxItemsPerPage
        if maxItems < 1 { reader.problem("maxItemsPerPage", "must be at least 1, found \(maxItems)") }
        let tags = DocumentLocations.readTags(reader)
        let http = HTTPSourceOptions.readForExplicitURLs(reader, fetchedURLs: DocumentLocations.urls(in: locations))
        try reader.finish()

        let extraction = HTMLExtraction(items: items ?? "", fields: fields, dateFormat: dateFormat)
        let client = configuration.httpClient(http.clientConfiguration(for: configuration))
        return FetchFeedEntriesUseCase(
            repository: HTMLPageRepository(client: client, extraction: extraction), locations: locations,
            maxEntriesPerFeed: maxItems, tags: tags, capOption: "maxItemsPerPage",
            label: { location in
                if case .url(let url) = location { return Redactor.redact(url) }
                return location.description
            })
    }

    /// Compiles an expression as the page reader will and evaluates it on an empty page, so a typo (in the
    /// syntax or a function's name) is a manifest error, not a failing run or a quietly empty field.
    private func check(_ expression: String, at key: String, selectsNodes: Bool, _ reader: OptionsReader) {
        if expression.trimmingCharacters(in: .whitespaces).isEmpty {
            reader.problem(key, "an XPath expression cannot be empty")
        } else if let problem = XPathSyntax.check(expression, selectsNodes: selectsNodes) {
            reader.problem(key, "\(problem) in '\(expression)'")
        }
    }
}
