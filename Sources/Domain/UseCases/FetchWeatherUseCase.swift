import Foundation

/// Current weather for many locations at once, in the order they were asked for.
public struct FetchWeatherUseCase: ItemSource {
    private let repository: any WeatherRepository
    private let locations: [WeatherLocation]

    public init(repository: any WeatherRepository, locations: [WeatherLocation]) {
        self.repository = repository
        self.locations = locations
    }

    public func load(_ context: LoadContext, into sink: ItemSink) {
        let (repository, locations) = (self.repository, self.locations)
        sink.collect(locations.map(\.description), context: context) { index, done in
            repository.currentWeather(at: locations[index], cancellation: context.cancellation) { result in
                done(result.map { [$0.toItem(requested: locations[index])] })
            }
        }
    }
}

extension Weather {
    /// Field keys are part of the output contract (README, "weather" items).
    public func toItem(requested location: WeatherLocation? = nil) -> Item {
        var fields: [String: JSONValue] = [
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
        fields["humidity"] = humidity.map(JSONValue.number)
        fields["pressure"] = pressure.map(JSONValue.number)
        if let windSpeed {
            fields["windSpeed"] = .double(windSpeed)
            fields["windSpeedUnit"] = .string(units.windSpeedSymbol)
        }
        fields["windDirection"] = windDirection.map(JSONValue.number)
        fields["cloudiness"] = cloudiness.map(JSONValue.number)
        fields["visibility"] = visibility.map(JSONValue.number)
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
}
