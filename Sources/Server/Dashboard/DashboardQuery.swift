import Foundation
import Presentation

/// The dashboard's query, checked: `q` (search), `status`, `provider`, `sort`, `order`, `page`. An empty value
/// is no filter (the form sends `status=` for "any"); anything else that does not fit is a 400 naming the
/// parameter.
enum DashboardQuery {
    static let known = ["q", "status", "provider", "sort", "order", "page"]
    /// The longest value any parameter takes.
    static let maxValueLength = 256

    static func filter(_ parameters: [(name: String, value: String)]) throws(RequestProblem) -> DashboardFilter {
        var filter = DashboardFilter()
        var given: Set<String> = []
        for (name, value) in parameters {
            guard known.contains(name) else {
                throw RequestProblem(parameter: name, "unknown parameter (known: \(known.joined(separator: ", ")))")
            }
            guard given.insert(name).inserted else { throw RequestProblem(parameter: name, "given more than once") }
            guard value.utf8.count <= maxValueLength else {
                throw RequestProblem(parameter: name, "longer than \(maxValueLength) bytes")
            }
            let value = value.trimmingCharacters(in: .whitespaces)
            guard !value.isEmpty else { continue }
            switch name {
            case "q": filter.text = value
            case "provider": filter.provider = value
            case "status":
                guard let status = DashboardFilter.StatusFilter(value) else {
                    let known = ["failing"] + DashboardStatus.allCases.map(\.rawValue)
                    throw RequestProblem(parameter: name, "one of \(known.joined(separator: ", "))")
                }
                filter.status = status
            case "sort":
                guard let sort = DashboardFilter.Sort(rawValue: value) else {
                    throw RequestProblem(parameter: name, "one of \(DashboardFilter.Sort.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                filter.sort = sort
            case "order":
                guard value == "asc" || value == "desc" else { throw RequestProblem(parameter: name, "asc or desc") }
                filter.descending = value == "desc"
            default:
                filter.page = try page(value, name: name, max: Int.max)
            }
        }
        return filter
    }

    /// A page number from 1 to `max`.
    static func page(_ value: String, name: String = "page", max: Int) throws(RequestProblem) -> Int {
        guard let page = Int(value), page >= 1, page <= max else {
            throw RequestProblem(parameter: name, "a whole number from 1\(max == Int.max ? "" : " to \(max)")")
        }
        return page
    }
}
