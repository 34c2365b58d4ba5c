/// The WMO weather interpretation codes (WMO 4677, the subset Open-Meteo reports) as the condition group and
/// description OpenWeather uses for the same weather, so the `condition` field means one thing across providers:
/// `Clear`, `Clouds`, `Fog`, `Drizzle`, `Rain`, `Snow`, `Thunderstorm`.
struct WMOWeatherCode: Sendable, Hashable {
    let condition: String
    let description: String

    init(_ code: Int) {
        let named: (String, String) = switch code {
        case 0: ("Clear", "clear sky")
        case 1: ("Clear", "mainly clear")
        case 2: ("Clouds", "partly cloudy")
        case 3: ("Clouds", "overcast")
        case 45: ("Fog", "fog")
        case 48: ("Fog", "depositing rime fog")
        case 51: ("Drizzle", "light drizzle")
        case 53: ("Drizzle", "moderate drizzle")
        case 55: ("Drizzle", "dense drizzle")
        case 56: ("Drizzle", "light freezing drizzle")
        case 57: ("Drizzle", "dense freezing drizzle")
        case 61: ("Rain", "slight rain")
        case 63: ("Rain", "moderate rain")
        case 65: ("Rain", "heavy rain")
        case 66: ("Rain", "light freezing rain")
        case 67: ("Rain", "heavy freezing rain")
        case 71: ("Snow", "slight snow fall")
        case 73: ("Snow", "moderate snow fall")
        case 75: ("Snow", "heavy snow fall")
        case 77: ("Snow", "snow grains")
        case 80: ("Rain", "slight rain showers")
        case 81: ("Rain", "moderate rain showers")
        case 82: ("Rain", "violent rain showers")
        case 85: ("Snow", "slight snow showers")
        case 86: ("Snow", "heavy snow showers")
        case 95: ("Thunderstorm", "thunderstorm")
        case 96: ("Thunderstorm", "thunderstorm with slight hail")
        case 99: ("Thunderstorm", "thunderstorm with heavy hail")
        default: ("Unknown", "WMO weather code \(code)")
        }
        condition = named.0
        description = named.1
    }
}
