import Domain
import FeedParsing
import Foundation

/// `aggregate export opml`: the manifest's `feed` sources as an OPML 2.0 subscription list, for any feed reader.
///
/// One outline per feed URL (a source with several URLs gives several), titled with the source's id; the
/// source's `tags` become its folder and `category`, so an import of the export gives the same sources back.
/// Disabled sources are exported too: the list is of what the manifest subscribes to.
public struct ExportFeedsToOPMLUseCase {
    public init() {}

    /// The OPML text; `title` heads the list.
    public func run(manifest: Manifest, title: String = "aggregate feeds") -> String {
        var feeds: [OPMLFeed] = []
        for source in manifest.sources where source.provider == "feed" {
            guard let options = source.options.objectValue, case .array(let urls)? = options["urls"] else { continue }
            var tags: [String] = []
            if case .array(let values)? = options["tags"] {
                for case .string(let tag) in values { tags.append(tag) }
            }
            for case .string(let url) in urls {
                feeds.append(OPMLFeed(title: source.id, url: url, categories: tags))
            }
        }
        return OPMLWriter.write(title: title, feeds: feeds)
    }
}
