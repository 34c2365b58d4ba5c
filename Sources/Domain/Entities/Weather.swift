import Foundation

/// Where to observe the weather.
public enum WeatherLocation: Sendable, Hashable, CustomStringConvertible {
    /// A place name for the service to look up ("Seoul", "Zocca,IT").
    case name(String)
    /// A place in the service's own gazetteer, by its identifier as the service writes it: OpenWeather's city
    /// ids and Open-Meteo's (GeoNames) ids are numbers (`"2643743"`), other services use text.
    case id(String)
    /// A place by latitude and longitude, in degrees.
    case coordinates(latitude: Double, longitude: Double)

    /// The location as a message shows it: the name, `city ID`, or `lat,lon`.
    public var description: String {
        switch self {
        case .name(let name): name
        case .id(let id): "city \(id)"
        case .coordinates(let latitude, let longitude): "\(latitude),\(longitude)"
        }
    }
}

/// The unit system temperatures and wind speeds are reported in. The raw values are the `units` field of
/// weather items; what they mean does not depend on the service (a provider whose service lacks one converts).
public enum UnitSystem: String, Sendable, Hashable, CaseIterable, Codable {
    /// SI: kelvin and metres per second. (OpenWeather's name for it; a service without kelvin is converted.)
    case standard
    /// Degrees Celsius and metres per second.
    case metric
    /// Degrees Fahrenheit and miles per hour.
    case imperial

    /// `K`, `°C` or `°F`.
    public var temperatureSymbol: String {
        switch self {
        case .standard: "K"
        case .metric: "°C"
        case .imperial: "°F"
        }
    }

    /// `m/s`, or `mph` for imperial.
    public var windSpeedSymbol: String {
        self == .imperial ? "mph" : "m/s"
    }
}

/// Current weather at one place.
public struct Weather: Sendable, Hashable {
    /// The place's name as the service gives it.
    public var locationName: String
    /// The place's country code (`KR`), if given.
    public var country: String?
    /// When the observation was made (UTC).
    public var observedAt: Date
    /// The place's offset from UTC, when the service says (older responses do not).
    public var utcOffsetSeconds: Int?
    /// A short condition group ("Clouds") and its longer description ("broken clouds").
    public var condition: String
    /// The longer description of ``condition``.
    public var conditionDescription: String
    /// The units of every temperature and wind speed below.
    public var units: UnitSystem
    /// The temperature, in ``units``.
    public var temperature: Double
    /// How warm it feels, in ``units``, if given.
    public var feelsLike: Double?
    /// The minimum temperature the service reports with the observation, in ``units``, if given.
    public var temperatureMin: Double?
    /// The maximum temperature the service reports with the observation, in ``units``, if given.
    public var temperatureMax: Double?
    /// Relative humidity, percent. Numbers below are kept as the service wrote them: `1020.95` hPa stays
    /// `1020.95`, `1021` stays `1021`.
    public var humidity: Double?
    /// Atmospheric pressure (at sea level when the service gives no ground-level value), hPa.
    public var pressure: Double?
    /// Pressure at sea level and at ground level, hPa, when the service gives them apart.
    public var seaLevelPressure: Double?
    /// See ``seaLevelPressure``.
    public var groundLevelPressure: Double?
    /// The wind's speed, in ``units``, if given.
    public var windSpeed: Double?
    /// The wind's gusts, in ``units``, if given.
    public var windGust: Double?
    /// Meteorological degrees.
    public var windDirection: Double?
    /// Cloud cover, percent.
    public var cloudiness: Double?
    /// Metres.
    public var visibility: Double?
    /// Millimetres in the last hour, when it rained or snowed.
    public var rainLastHour: Double?
    /// Millimetres of snow in the last hour, when it snowed.
    public var snowLastHour: Double?

    /// An observation; optional parts absent unless given.
    public init(
        locationName: String, country: String? = nil, observedAt: Date, utcOffsetSeconds: Int? = nil,
        condition: String, conditionDescription: String, units: UnitSystem, temperature: Double,
        feelsLike: Double? = nil, temperatureMin: Double? = nil, temperatureMax: Double? = nil,
        humidity: Double? = nil, pressure: Double? = nil, seaLevelPressure: Double? = nil,
        groundLevelPressure: Double? = nil, windSpeed: Double? = nil, windGust: Double? = nil,
        windDirection: Double? = nil, cloudiness: Double? = nil, visibility: Double? = nil,
        rainLastHour: Double? = nil, snowLastHour: Double? = nil
    ) {
        self.locationName = locationName
        self.country = country
        self.observedAt = observedAt
        self.utcOffsetSeconds = utcOffsetSeconds
        self.condition = condition
        self.conditionDescription = conditionDescription
        self.units = units
        self.temperature = temperature
        self.feelsLike = feelsLike
        self.temperatureMin = temperatureMin
        self.temperatureMax = temperatureMax
        self.humidity = humidity
        self.pressure = pressure
        self.seaLevelPressure = seaLevelPressure
        self.groundLevelPressure = groundLevelPressure
        self.windSpeed = windSpeed
        self.windGust = windGust
        self.windDirection = windDirection
        self.cloudiness = cloudiness
        self.visibility = visibility
        self.rainLastHour = rainLastHour
        self.snowLastHour = snowLastHour
    }
}
