import Foundation

/// Current weather for a location, from whichever service the provider speaks to.
public protocol WeatherRepository: Sendable {
    func currentWeather(
        at location: WeatherLocation, cancellation: CancellationToken,
        completion: @escaping @Sendable (Result<Weather, SourceError>) -> Void
    )
}
