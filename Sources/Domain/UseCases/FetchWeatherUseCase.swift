import Foundation

/// Current weather for many locations at once, in the order they were asked for.
public struct FetchWeatherUseCase: ItemSource {
    private let repository: any WeatherRepository
    private let locations: [WeatherLocation]

    /// Reads the weather at every location of `locations` through `repository`.
    public init(repository: any WeatherRepository, locations: [WeatherLocation]) {
        self.repository = repository
        self.locations = locations
    }

    /// Reads the locations, at most `context.concurrency` at once, emits one item per observation and finishes
    /// `receiver` once.
    public func load(_ context: LoadContext, into receiver: ItemReceiver) {
        let (repository, locations) = (self.repository, self.locations)
        receiver.collect(locations.map(\.description), context: context) { index, done in
            repository.currentWeather(at: locations[index], cancellation: context.cancellation) { result in
                done(result.map { [$0.toItem(requested: locations[index])] })
            }
        }
    }
}

extension Weather {
    /// Field keys are part of the output contract (docs/PROVIDERS.md, "weather" items).
    public func toItem(requested location: WeatherLocation? = nil) -> Item {
        var fields: JSONObject = [
            "condition": .string(condition),
            "description": .string(conditionDescription),
            "units": .string(units.rawValue),
            "temperature": .double(temperature),
            "temperatureUnit": .string(units.temperatureSymbol),
        ]
        fields["country"] = country.map(JSONValue.string)
        fields["utcOffsetSeconds"] = utcOffsetSeconds.map(JSONValue.int)
        fields["feelsLike"] = feelsLike.map(JSONValue.double)
        fields["temperatureMin"] = temperatureMin.map(JSONValue.double)
        fields["temperatureMax"] = temperatureMax.map(JSONValue.double)
        fields["humidity"] = humidity.map(Self.number)
        fields["pressure"] = pressure.map(Self.number)
        fields["seaLevelPressure"] = seaLevelPressure.map(Self.number)
        fields["groundLevelPressure"] = groundLevelPressure.map(Self.number)
        if let windSpeed {
            fields["windSpeed"] = .double(windSpeed)
            fields["windSpeedUnit"] = .string(units.windSpeedSymbol)
        }
        fields["windGust"] = windGust.map(JSONValue.double)
        fields["windDirection"] = windDirection.map(Self.number)
        fields["cloudiness"] = cloudiness.map(Self.number)
        fields["visibility"] = visibility.map(Self.number)
        fields["rainLastHour"] = rainLastHour.map(JSONValue.double)
        fields["snowLastHour"] = snowLastHour.map(JSONValue.double)
        let temperatureText = JSONValue.double(temperature).displayText
        return Item(
            kind: .weather,
            id: location?.description ?? locationName,
            title: locationName,
            subtitle: "\(condition), \(temperatureText) \(units.temperatureSymbol)",
            date: observedAt,
            fields: fields
        )
    }

    /// A count-like reading as the service wrote it: whole numbers as integers (`1021`, `64`), fractions as
    /// they are (`1020.95`), never rounded.
    private static func number(_ value: Double) -> JSONValue {
        if value.rounded() == value, let whole = Int(exactly: value) { return .int(whole) }
        return .double(value)
    }
}
