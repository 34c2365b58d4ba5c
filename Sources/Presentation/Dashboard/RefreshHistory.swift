import Domain
import Foundation

/// A source's last refreshes (how long each took, how each ended), newest last: a fixed ring, so a source that
/// refreshes every minute for a year costs what one refreshing once does. The dashboard draws it as a sparkline.
public struct RefreshHistory: Sendable, Hashable {
    public struct Refresh: Sendable, Hashable {
        public var duration: TimeInterval
        public var status: SourceStatus
    }

    /// Refreshes kept per source.
    public static let capacity = 20

    private var ring: [Refresh] = []
    private var next = 0

    public init() {}

    public mutating func append(duration: TimeInterval, status: SourceStatus) {
        let refresh = Refresh(duration: duration.isFinite ? max(0, duration) : 0, status: status)
        if ring.count < Self.capacity {
            ring.append(refresh)
        } else {
            ring[next] = refresh
        }
        next = (next + 1) % Self.capacity
    }

    /// Oldest first.
    public var refreshes: [Refresh] {
        ring.count < Self.capacity ? ring : Array(ring[next...] + ring[..<next])
    }
}

/// A refresh history as a small inline SVG: one bar per refresh, its height the refresh's duration against the
/// slowest one shown; a refresh that did not end `ok` is a full-height bar in the error colour, so colour is
/// never the only sign. The words (`<title>` and `aria-label`) say the same for people who do not see it.
enum Sparkline {
    static let width = 80
    static let height = 18

    static func svg(_ history: RefreshHistory?) -> String {
        let refreshes = history?.refreshes ?? []
        guard !refreshes.isEmpty else { return "<span class=\"spark-none\">–</span>" }
        let slowest = max(refreshes.map(\.duration).max() ?? 0, 0.001)
        let step = width / RefreshHistory.capacity
        var good = ""
        var bad = ""
        for (index, refresh) in refreshes.enumerated() {
            let x = index * step
            if refresh.status == .ok {
                let bar = max(1, Int((refresh.duration / slowest * Double(height)).rounded()))
                good += "M\(x) \(height)v-\(bar)h\(step - 1)v\(bar)z"
            } else {
                bad += "M\(x) \(height)v-\(height)h\(step - 1)v\(height)z"
            }
        }
        let failed = refreshes.filter { $0.status != .ok }.count
        let words = "last \(refreshes.count) refreshes: \(refreshes.count - failed) ok, \(failed) not ok, slowest "
            + HumanFormat.duration(slowest)
        var svg = "<svg class=\"spark\" viewBox=\"0 0 \(width) \(height)\" width=\"\(width)\" height=\"\(height)\" role=\"img\" aria-label=\"\(words)\"><title>\(words)</title>"
        if !good.isEmpty { svg += "<path class=\"ok\" d=\"\(good)\"/>" }
        if !bad.isEmpty { svg += "<path class=\"bad\" d=\"\(bad)\"/>" }
        return svg + "</svg>"
    }
}
