import Domain
import Foundation

// MARK: - Data Transfer Object

/// `GET /data/2.5/weather`, success body. Optional wherever real responses omit fields (2013-era answers
/// have no `timezone` or `visibility`; `rain`/`snow` appear only when it rains or snows). Every number is
/// read as a `Double` and kept as sent: answers of some years and stations carry fractions where the docs
/// show integers (`"pressure": 1025.25`, `"sea_level": 1035.35`, `"deg": 255.003`, `"humidity": 100.0`).
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
        let seaLevel: Double?
        let groundLevel: Double?

        enum CodingKeys: String, CodingKey {
            case temp, pressure, humidity
            case seaLevel = "sea_level"
            case groundLevel = "grnd_level"
            case feelsLike = "feels_like"
            case tempMin = "temp_min"
            case tempMax = "temp_max"
        }
    }

    struct WindDTO: Decodable {
        let speed: Double?
        let deg: Double?
        let gust: Double?
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
            humidity: main.humidity,
            pressure: main.pressure,
            seaLevelPressure: main.seaLevel,
            groundLevelPressure: main.groundLevel,
            windSpeed: wind?.speed,
            windGust: wind?.gust,
            windDirection: wind?.deg,
            cloudiness: clouds?.all,
            visibility: visibility,
            rainLastHour: rain?.lastHour,
            snowLastHour: snow?.lastHour))
    }
}
