import Foundation

/// Current weather for a location, from whichever service the provider speaks to.
public protocol WeatherRepository: Sendable {
    /// Reads the weather now at `location` and calls `completion` exactly once, from any thread, with the
    /// observation or a `SourceError` (an unknown place is `notFound`). Stops soon after `cancellation`.
    func currentWeather(
        at location: WeatherLocation, cancellation: CancellationToken,
        completion: @escaping @Sendable (Result<Weather, SourceError>) -> Void
    )
}
