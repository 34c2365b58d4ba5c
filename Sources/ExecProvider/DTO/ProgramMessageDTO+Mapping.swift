import Domain
import Foundation

// MARK: - Data Transfer Object

/// One line of a program's stdout: our item shape or a Singer message (https://hub.meltano.com/singer/spec).
enum ProgramMessageDTO: Equatable {
    /// `{"type":"item","id":…,"title":…,"subtitle":…,"url":…,"date":…,"fields":{…}}`
    case item(ItemMessageDTO)
    /// `{"type":"RECORD","stream":…,"record":{…}}`
    case record(SingerRecordDTO)
    /// `{"type":"SCHEMA","stream":…,"schema":{…},"key_properties":[…]}`: only the key properties matter to us.
    case schema(stream: String, keyProperties: [String])
    /// `{"type":"STATE","value":…}`: a tap's bookmark, meaningless to a one-shot run.
    case state
    /// Any other `type` (Singer's `ACTIVATE_VERSION`, a newer message): ignored with a warning.
    case unknown(type: String)

    /// Decodes one line. The reason of a failure never quotes the line (it may hold a secret).
    init(line: Data) throws(ProgramLineError) {
        let json: JSONValue
        do {
            json = try JSONValue.parse(line)
        } catch {
            throw ProgramLineError("not valid JSON")
        }
        guard case .object(let object) = json else {
            throw ProgramLineError("expected a JSON object, found \(json.typeName)")
        }
        guard let type = object["type"]?.stringValue else {
            throw ProgramLineError("has no \"type\" string")
        }
        switch type.lowercased() {
        case "item":
            self = .item(try ItemMessageDTO(object))
        case "record":
            self = .record(try SingerRecordDTO(object))
        case "schema":
            let stream = try Self.stream(in: object)
            var keys: [String] = []
            switch object["key_properties"] {
            case nil, .null?: break
            case .array(let values)?:
                for value in values {
                    guard let key = value.stringValue else { throw ProgramLineError("\"key_properties\" must be strings") }
                    keys.append(key)
                }
            default: throw ProgramLineError("\"key_properties\" must be an array of strings")
            }
            self = .schema(stream: stream, keyProperties: keys)
        case "state":
            self = .state
        default:
            self = .unknown(type: type)
        }
    }

    static func stream(in object: JSONObject) throws(ProgramLineError) -> String {
        guard let stream = object["stream"]?.stringValue, !stream.isEmpty else {
            throw ProgramLineError("has no \"stream\" string")
        }
        return stream
    }
}

/// Our own item message, as read (every member optional but `type`).
struct ItemMessageDTO: Equatable {
    var id: String?
    var title: String?
    var subtitle: String?
    var url: String?
    var date: String?
    var fields: JSONObject

    init(_ object: JSONObject) throws(ProgramLineError) {
        id = try Self.identifier(object["id"], name: "id")
        title = try Self.string(object["title"], name: "title")
        subtitle = try Self.string(object["subtitle"], name: "subtitle")
        url = try Self.string(object["url"], name: "url")
        date = try Self.string(object["date"], name: "date")
        switch object["fields"] {
        case nil, .null?: fields = [:]
        case .object(let members)?: fields = members
        case let other?: throw ProgramLineError("\"fields\" must be an object, found \(other.typeName)")
        }
    }

    /// Ids may be strings or integers (`"id": 42` reads as "42").
    static func identifier(_ value: JSONValue?, name: String) throws(ProgramLineError) -> String? {
        switch value {
        case nil, .null?: nil
        case .string(let string)?: string.isEmpty ? nil : string
        case .int(let number)?: String(number)
        case let other?: throw ProgramLineError("\"\(name)\" must be a string or an integer, found \(other.typeName)")
        }
    }

    static func string(_ value: JSONValue?, name: String) throws(ProgramLineError) -> String? {
        switch value {
        case nil, .null?: nil
        case .string(let string)?: string
        case let other?: throw ProgramLineError("\"\(name)\" must be a string, found \(other.typeName)")
        }
    }
}

/// A Singer `RECORD`.
struct SingerRecordDTO: Equatable {
    var stream: String
    var record: JSONObject

    init(_ object: JSONObject) throws(ProgramLineError) {
        stream = try ProgramMessageDTO.stream(in: object)
        guard case .object(let record)? = object["record"] else {
            throw ProgramLineError("a RECORD needs a \"record\" object")
        }
        self.record = record
    }
}

/// Why one line of output was rejected.
struct ProgramLineError: Error, Equatable {
    var reason: String

    init(_ reason: String) {
        self.reason = reason
    }
}

// MARK: - Mappings to Domain

extension ItemMessageDTO {
    /// A record of kind `record`; without an `id` the line number stands in (`line-7`), without a `title` the id.
    func toDomain(lineNumber: Int) throws(ProgramLineError) -> Record {
        var parsedURL: URL?
        if let url {
            guard let value = URL(string: url), value.scheme != nil else {
                throw ProgramLineError("\"url\" is not an absolute URL")
            }
            parsedURL = value
        }
        var parsedDate: Date?
        if let date {
            guard let value = ISO8601.date(from: date) else {
                throw ProgramLineError("\"date\" is not an ISO 8601 date such as 2026-11-22T10:00:00Z")
            }
            parsedDate = value
        }
        let id = self.id ?? "line-\(lineNumber)"
        return Record(id: id, title: title ?? id, subtitle: subtitle, url: parsedURL, date: parsedDate, fields: fields)
    }
}

extension SingerRecordDTO {
    /// A record of kind `record` whose fields are the Singer record. Its id is `stream/key` from the stream's
    /// SCHEMA `key_properties` (several keys joined by `/`), else `stream/line-N`; its title the record's
    /// `title` or `name` when a string, else the id; its subtitle the stream.
    func toDomain(keyProperties: [String], lineNumber: Int) -> Record {
        let keyValues = keyProperties.compactMap { key -> String? in
            guard let value = record[key], value != .null else { return nil }
            return value.displayText
        }
        let key = !keyProperties.isEmpty && keyValues.count == keyProperties.count
            ? keyValues.joined(separator: "/")
            : "line-\(lineNumber)"
        let id = "\(stream)/\(key)"
        let title = record["title"]?.stringValue ?? record["name"]?.stringValue ?? id
        return Record(id: id, title: title, subtitle: stream, fields: record)
    }
}
