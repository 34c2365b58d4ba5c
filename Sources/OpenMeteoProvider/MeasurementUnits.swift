import Domain
import Foundation

/// Converts what a forecast body holds (its `current_units`) into the unit system the item reports in.
/// Values already in the wanted unit pass unchanged, so a recorded `17.7` stays `17.7`; converted ones are
/// rounded to two decimals (`290.85` K, never `290.84999999999997`).
struct MeasurementUnits: Sendable {
    enum Temperature: Sendable { case celsius, fahrenheit }
    /// Metres per second in one unit of the body's wind speed.
    let metresPerSecondPerWindUnit: Double
    let temperatureUnit: Temperature
    /// Metres in one unit of the body's visibility.
    let metresPerVisibilityUnit: Double
    let target: UnitSystem

    /// The request parameters asking for `units` where Open-Meteo has them (kelvin comes from celsius).
    static func requestParameters(for units: UnitSystem) -> [(String, String)] {
        [("temperature_unit", units == .imperial ? "fahrenheit" : "celsius"),
         ("wind_speed_unit", units == .imperial ? "mph" : "ms")]
    }

    /// The body's units; a unit the body does not name is taken to be the one asked for.
    static func read(_ dto: ForecastResponseDTO.CurrentUnitsDTO?, reportingIn target: UnitSystem) -> Result<MeasurementUnits, SourceError> {
        let temperature: Temperature
        switch dto?.temperature ?? (target == .imperial ? "°F" : "°C") {
        case "°C": temperature = .celsius
        case "°F": temperature = .fahrenheit
        case let other: return .failure(SourceError(.badResponse, "temperatures in an unknown unit '\(other.prefix(20))'"))
        }
        let wind: Double
        switch dto?.windSpeed ?? (target == .imperial ? "mp/h" : "m/s") {
        case "m/s": wind = 1
        case "km/h": wind = 1 / 3.6
        case "mp/h", "mph": wind = 0.44704
        case "kn": wind = 0.514444
        case let other: return .failure(SourceError(.badResponse, "wind speeds in an unknown unit '\(other.prefix(20))'"))
        }
        let visibility: Double
        switch dto?.visibility ?? "m" {
        case "m": visibility = 1
        case "ft": visibility = 0.3048
        case let other: return .failure(SourceError(.badResponse, "visibility in an unknown unit '\(other.prefix(20))'"))
        }
        return .success(MeasurementUnits(
            metresPerSecondPerWindUnit: wind, temperatureUnit: temperature, metresPerVisibilityUnit: visibility, target: target))
    }

    func temperature(_ value: Double) -> Double {
        switch (temperatureUnit, target) {
        case (.celsius, .metric), (.fahrenheit, .imperial): value
        case (.celsius, .standard): Self.rounded(value + 273.15)
        case (.celsius, .imperial): Self.rounded(value * 9 / 5 + 32)
        case (.fahrenheit, .metric): Self.rounded((value - 32) * 5 / 9)
        case (.fahrenheit, .standard): Self.rounded((value - 32) * 5 / 9 + 273.15)
        }
    }

    func windSpeed(_ value: Double) -> Double {
        let wanted = target == .imperial ? 0.44704 : 1
        return metresPerSecondPerWindUnit == wanted ? value : Self.rounded(value * metresPerSecondPerWindUnit / wanted)
    }

    func visibility(_ value: Double) -> Double {
        metresPerVisibilityUnit == 1 ? value : Self.rounded(value * metresPerVisibilityUnit)
    }

    private static func rounded(_ value: Double) -> Double { (value * 100).rounded() / 100 }
}
