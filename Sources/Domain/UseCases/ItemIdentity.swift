import Foundation

/// The key `--dedupe` compares items by: the same key is the same story, whichever source carries it.
public enum ItemIdentity {
    /// `item`'s key for `dedupe`, or nil when it has none (no URL, an empty title): such an item is never a
    /// duplicate.
    public static func key(of item: Item, by dedupe: DedupeKey) -> String? {
        switch dedupe {
        case .id: item.id.isEmpty ? nil : item.id
        case .url: item.url.flatMap(canonicalURL)
        case .title: normalizedTitle(item.title)
        }
    }

    /// Query parameters that say where a reader came from, not what the page is.
    static let trackingParameters: Set<String> = [
        "fbclid", "gclid", "dclid", "gbraid", "wbraid", "msclkid", "yclid", "twclid", "igshid", "mc_cid", "mc_eid",
        "_ga", "_gl", "_hsenc", "_hsmi", "mkt_tok", "oly_anon_id", "oly_enc_id", "vero_id", "ref_src", "ref_url",
        "spm", "cmpid", "s_cid",
    ]

    /// `https://Example.com/a/b/?utm_source=x&id=3#top` → `example.com/a/b?id=3`: host lowercased (a default
    /// port dropped), the scheme left out (`http` and `https` copies are one story), tracking parameters
    /// (`utm_*` and `trackingParameters`) and the fragment removed, a trailing slash removed, the remaining
    /// parameters sorted. Nil for a URL without a host.
    public static func canonicalURL(_ url: URL) -> String? {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let host = components.host?.lowercased(), !host.isEmpty
        else { return nil }
        var key = host
        if let port = components.port, !(port == 80 || port == 443) { key += ":\(port)" }
        var path = components.percentEncodedPath
        while path.hasSuffix("/") { path.removeLast() }
        key += path
        let kept = (components.percentEncodedQueryItems ?? []).filter { item in
            let name = item.name.lowercased()
            return !name.hasPrefix("utm_") && !trackingParameters.contains(name)
        }
        if !kept.isEmpty {
            key += "?" + kept.map { item in item.value.map { "\(item.name)=\($0)" } ?? item.name }.sorted()
                .joined(separator: "&")
        }
        return key
    }

    /// `  Swift 6.1 — Released!` → `swift 6 1 released`: case, accents and width folded, every run of
    /// characters other than letters and digits one space, trimmed. Nil when nothing is left.
    public static func normalizedTitle(_ title: String) -> String? {
        if let ascii = asciiNormalizedTitle(title) { return ascii.isEmpty ? nil : ascii }
        let folded = title.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        var result = ""
        var pendingSpace = false
        for character in folded {
            if character.isLetter || character.isNumber {
                if pendingSpace, !result.isEmpty { result.append(" ") }
                pendingSpace = false
                result.append(character)
            } else {
                pendingSpace = true
            }
        }
        return result.isEmpty ? nil : result
    }

    /// `normalizedTitle` of a title that is all ASCII, by bytes (nil for any other): folding ASCII only lowercases
    /// it, and its letters and digits are `[a-z0-9]`. Foundation's `folding` and a walk by `Character` were most of
    /// `--dedupe title`'s cost.
    static func asciiNormalizedTitle(_ title: String) -> String? {
        var title = title
        return title.withUTF8 { bytes -> String? in
            guard !bytes.contains(where: { $0 >= 0x80 }) else { return nil }
            return String(unsafeUninitializedCapacity: bytes.count) { output in
                var count = 0
                var pendingSpace = false
                for byte in bytes {
                    let lower = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
                    if (lower >= 0x61 && lower <= 0x7A) || (lower >= 0x30 && lower <= 0x39) {
                        if pendingSpace, count > 0 {
                            output[count] = 0x20
                            count += 1
                        }
                        pendingSpace = false
                        output[count] = lower
                        count += 1
                    } else {
                        pendingSpace = true
                    }
                }
                return count
            }
        }
    }

    /// How much an item says: its optional parts present plus its fields. `--dedupe` keeps the fullest copy.
    static func richness(of item: Item) -> Int {
        (item.subtitle == nil ? 0 : 1) + (item.url == nil ? 0 : 1) + (item.date == nil ? 0 : 1)
            + item.fields.values.filter { $0 != .null }.count
    }
}
