import Domain
import Foundation

// MARK: - Data Transfer Object

/// `GET /data/2.5/weather`, success body. Optional wherever real responses omit fields (2013-era answers
/// have no `timezone` or `visibility`; `rain`/`snow` appear only when it rains or snows). Measurements
/// are read as numbers and kept as reported: `"pressure": 1020.95` stays 1020.95, `"humidity": 64.0` is 64.
struct CurrentWeatherResponseDTO: Decodable {
    struct ConditionDTO: Decodable {
        let main: String
        let description: String?
    }

    struct MainDTO: Decodable {
        let temp: Double
        let feelsLike: Double?
        let tempMin: Double?
        let tempMax: Double?
        let pressure: Double?
        let humidity: Double?

        enum CodingKeys: String, CodingKey {
            case temp, pressure, humidity
            case feelsLike = "feels_like"
            case tempMin = "temp_min"
            case tempMax = "temp_max"
        }
    }

    struct WindDTO: Decodable {
        let speed: Double?
        let deg: Double?
    }

    struct CloudsDTO: Decodable {
        let all: Double?
    }

    struct PrecipitationDTO: Decodable {
        let lastHour: Double?

        enum CodingKeys: String, CodingKey {
            case lastHour = "1h"
        }
    }

    struct SysDTO: Decodable {
        let country: String?
    }

    let weather: [ConditionDTO]?
    let main: MainDTO
    let visibility: Double?
    let wind: WindDTO?
    let clouds: CloudsDTO?
    let rain: PrecipitationDTO?
    let snow: PrecipitationDTO?
    let dt: Int
    let sys: SysDTO?
    let timezone: Int?
    let name: String?
}

// MARK: - Mappings to Domain

extension CurrentWeatherResponseDTO {
    /// `units` is what was asked for: the body does not say (Kelvin for standard, °C for metric).
    func toDomain(units: UnitSystem, requested location: WeatherLocation) -> Result<Weather, SourceError> {
        guard main.temp.isFinite else { return .failure(SourceError(.badResponse, "the temperature is not a number")) }
        let condition = weather?.first
        let name = name.flatMap { $0.isEmpty ? nil : $0 } ?? location.description
        return .success(Weather(
            locationName: name,
            country: sys?.country.flatMap { $0.isEmpty ? nil : $0 },
            observedAt: Date(timeIntervalSince1970: TimeInterval(dt)),
            utcOffsetSeconds: timezone,
            condition: condition?.main ?? "Unknown",
            conditionDescription: condition?.description ?? condition?.main ?? "",
            units: units,
            temperature: main.temp,
            feelsLike: main.feelsLike,
            temperatureMin: main.tempMin,
            temperatureMax: main.tempMax,
            humidity: main.humidity.flatMap(Self.finite),
            pressure: main.pressure.flatMap(Self.finite),
            windSpeed: wind?.speed,
            windDirection: wind?.deg.flatMap(Self.finite),
            cloudiness: clouds?.all.flatMap(Self.finite),
            visibility: visibility.flatMap(Self.finite),
            rainLastHour: rain?.lastHour,
            snowLastHour: snow?.lastHour))
    }

    /// The value as reported; nil for what no measurement is (NaN, infinity).
    private static func finite(_ value: Double) -> Double? {
        value.isFinite ? value : nil
    }
}
