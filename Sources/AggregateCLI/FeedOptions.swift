import ArgumentParser
import Foundation
import Presentation

/// `--feed-title` and `--feed-link`: what an Atom, RSS or JSON Feed output says about itself.
struct FeedOptions: ParsableArguments {
    @Option(name: .customLong("feed-title"),
            help: ArgumentHelp("The feed's title (-f atom|rss|jsonfeed; default: aggregate: <ids of the sources that ran>).",
                               valueName: "text"))
    var title: String?

    @Option(name: .customLong("feed-link"),
            help: ArgumentHelp("The page the feed stands for, an http(s) URL (-f atom|rss|jsonfeed).", valueName: "url"))
    var link: String?

    func validate(for format: OutputFormat?) throws {
        guard title != nil || link != nil else { return }
        guard format?.isFeed == true else {
            throw ValidationError("--feed-title and --feed-link describe a feed: use them with -f atom, rss or jsonfeed.")
        }
        if let title, title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            throw ValidationError("--feed-title needs some text.")
        }
        if let link, Self.url(link) == nil {
            throw ValidationError("--feed-link must be an absolute http or https URL, such as https://example.com/news.")
        }
    }

    var metadata: FeedMetadata {
        FeedMetadata(title: title, link: link.flatMap(Self.url))
    }

    private static func url(_ text: String) -> URL? {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
              scheme == "http" || scheme == "https", url.host?.isEmpty == false else { return nil }
        return url
    }
}
