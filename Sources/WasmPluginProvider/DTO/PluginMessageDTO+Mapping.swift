import Domain
import Foundation

// MARK: - Data Transfer Object

/// One `emit` call's message: the exec provider's item shape, plus a warning, an error, or (from
/// `aggregate_check`) an option problem.
enum PluginMessageDTO: Equatable {
    /// `{"type":"item","id":…,"title":…,"subtitle":…,"url":…,"date":…,"fields":{…}}`
    case item(id: String?, title: String?, subtitle: String?, url: String?, date: String?, fields: JSONObject)
    /// `{"type":"warning","message":…}`: shown with the source's report; the source still succeeds.
    case warning(String)
    /// `{"type":"error","message":…,"kind":"notFound"}`: the source fails with it (`kind` one of SourceError's,
    /// `badResponse` when absent).
    case error(SourceError.Kind, String)
    /// `{"type":"problem","option":"city","message":…}`: an option problem, from `aggregate_check` only.
    case problem(option: String?, message: String)

    /// Decodes one message. A failure's reason never quotes the message (it may hold a secret).
    init(bytes: [UInt8]) throws(PluginFailure) {
        guard let json = try? JSONValue.parse(Data(bytes)), case .object(let object) = json else {
            throw .protocolViolation("emit was given something other than a JSON object")
        }
        func string(_ name: String) throws(PluginFailure) -> String? {
            switch object[name] {
            case nil, .null?: return nil
            case .string(let text)?: return text
            case .int(let number)? where name == "id": return String(number)
            case let other?: throw .protocolViolation("emit: \"\(name)\" must be a string, found \(other.typeName)")
            }
        }
        switch object["type"]?.stringValue {
        case "item":
            let fields: JSONObject
            switch object["fields"] {
            case nil, .null?: fields = [:]
            case .object(let members)?: fields = members
            case let other?: throw .protocolViolation("emit: \"fields\" must be an object, found \(other.typeName)")
            }
            self = .item(
                id: try string("id"), title: try string("title"), subtitle: try string("subtitle"), url: try string("url"),
                date: try string("date"), fields: fields)
        case "warning":
            self = .warning(try string("message") ?? "(a warning without a message)")
        case "error":
            let kindName = try string("kind")
            let kind = kindName.flatMap(SourceError.Kind.init(rawValue:)) ?? .badResponse
            self = .error(kind, try string("message") ?? "(an error without a message)")
        case "problem":
            self = .problem(option: try string("option"), message: try string("message") ?? "is not valid")
        case let other?:
            throw .protocolViolation("emit: unknown message type '\(other)' (item, warning, error, problem)")
        case nil:
            throw .protocolViolation("emit: a message needs a \"type\" string")
        }
    }
}

// MARK: - Mappings to Domain

extension PluginMessageDTO {
    /// The record of an item message, the `number`th of the run standing in for a missing id (`item-7`).
    static func record(
        id: String?, title: String?, subtitle: String?, url: String?, date: String?, fields: JSONObject, number: Int
    ) throws(PluginFailure) -> Record {
        var parsedURL: URL?
        if let url {
            guard let value = URL(string: url), value.scheme != nil else {
                throw .protocolViolation("item \(number): \"url\" is not an absolute URL")
            }
            parsedURL = value
        }
        var parsedDate: Date?
        if let date {
            guard let value = ISO8601.date(from: date) else {
                throw .protocolViolation("item \(number): \"date\" is not an ISO 8601 date such as 2026-11-22T10:00:00Z")
            }
            parsedDate = value
        }
        let id = (id?.isEmpty == false ? id : nil) ?? "item-\(number)"
        return Record(id: id, title: title ?? id, subtitle: subtitle, url: parsedURL, date: parsedDate, fields: fields)
    }
}
