import Domain
import Foundation

// MARK: - Data Transfer Object

/// `GET /v1/forecast?…&current=…`, success body: the place's offset from UTC, and the `current` conditions
/// with their units in `current_units`. A variable the model lacks for the place is `null`; `current` is
/// absent when no current variable was asked for.
struct ForecastResponseDTO: Decodable {
    struct CurrentDTO: Decodable {
        /// Local time at `utc_offset_seconds`, minutes precision: `2026-10-03T12:30`.
        let time: String
        let temperature: Double?
        let apparentTemperature: Double?
        let relativeHumidity: Double?
        let pressureMSL: Double?
        let surfacePressure: Double?
        let windSpeed: Double?
        let windDirection: Double?
        let windGusts: Double?
        let cloudCover: Double?
        let visibility: Double?
        let weatherCode: Int?

        enum CodingKeys: String, CodingKey {
            case time, visibility
            case temperature = "temperature_2m"
            case apparentTemperature = "apparent_temperature"
            case relativeHumidity = "relative_humidity_2m"
            case pressureMSL = "pressure_msl"
            case surfacePressure = "surface_pressure"
            case windSpeed = "wind_speed_10m"
            case windDirection = "wind_direction_10m"
            case windGusts = "wind_gusts_10m"
            case cloudCover = "cloud_cover"
            case weatherCode = "weather_code"
        }
    }

    struct CurrentUnitsDTO: Decodable {
        let temperature: String?
        let windSpeed: String?
        let visibility: String?

        enum CodingKeys: String, CodingKey {
            case visibility
            case temperature = "temperature_2m"
            case windSpeed = "wind_speed_10m"
        }
    }

    let utcOffsetSeconds: Int?
    let current: CurrentDTO?
    let currentUnits: CurrentUnitsDTO?

    enum CodingKeys: String, CodingKey {
        case current
        case utcOffsetSeconds = "utc_offset_seconds"
        case currentUnits = "current_units"
    }

    /// The `current=` variables the provider asks for: everything the mapping reads.
    static let currentVariables = [
        "temperature_2m", "relative_humidity_2m", "apparent_temperature", "weather_code", "cloud_cover",
        "pressure_msl", "surface_pressure", "wind_speed_10m", "wind_direction_10m", "wind_gusts_10m", "visibility",
    ]
}

// MARK: - Mappings to Domain

extension ForecastResponseDTO {
    /// `units` is what the item reports in; the body's `current_units` say what it holds, and values are
    /// converted where they differ (kelvin, which Open-Meteo does not offer; km/h when the unit was not asked).
    func toDomain(units: UnitSystem, name: String, country: String?) -> Result<Weather, SourceError> {
        guard let current else { return .failure(SourceError(.badResponse, "the answer has no current conditions")) }
        guard let temperature = current.temperature, temperature.isFinite else {
            return .failure(SourceError(.badResponse, "the answer has no current temperature"))
        }
        let offset = utcOffsetSeconds ?? 0
        guard let localTime = Self.localTime(current.time) else {
            return .failure(SourceError(.badResponse, "the observation time '\(current.time.prefix(40))' is not a date"))
        }
        let convert: MeasurementUnits
        switch MeasurementUnits.read(currentUnits, reportingIn: units) {
        case .success(let units): convert = units
        case .failure(let error): return .failure(error)
        }
        let code = current.weatherCode.map(WMOWeatherCode.init)
        return .success(Weather(
            locationName: name,
            country: country,
            observedAt: localTime.addingTimeInterval(-TimeInterval(offset)),
            utcOffsetSeconds: utcOffsetSeconds,
            condition: code?.condition ?? "Unknown",
            conditionDescription: code?.description ?? "",
            units: units,
            temperature: convert.temperature(temperature),
            feelsLike: current.apparentTemperature.map(convert.temperature),
            humidity: current.relativeHumidity,
            pressure: current.pressureMSL,
            seaLevelPressure: current.pressureMSL,
            groundLevelPressure: current.surfacePressure,
            windSpeed: current.windSpeed.map(convert.windSpeed),
            windGust: current.windGusts.map(convert.windSpeed),
            windDirection: current.windDirection,
            cloudiness: current.cloudCover,
            visibility: current.visibility.map(convert.visibility)))
    }

    /// `2026-10-03T12:30` (or with seconds) read as if it were UTC; the caller applies the offset.
    static func localTime(_ text: String) -> Date? {
        let parts = text.split(whereSeparator: { "-T:".contains($0) }).map { Int($0) }
        guard parts.count == 5 || parts.count == 6, parts.allSatisfy({ $0 != nil }) else { return nil }
        var components = DateComponents()
        components.calendar = Calendar(identifier: .gregorian)
        components.timeZone = TimeZone(secondsFromGMT: 0)
        (components.year, components.month, components.day) = (parts[0], parts[1], parts[2])
        (components.hour, components.minute, components.second) = (parts[3], parts[4], parts.count == 6 ? parts[5] : 0)
        guard components.isValidDate else { return nil }
        return components.date
    }
}
