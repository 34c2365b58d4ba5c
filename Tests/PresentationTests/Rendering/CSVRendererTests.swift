import CSV
import Domain
import Foundation
import Presentation
import Testing

@Suite("CSV renderer")
struct CSVRendererTests {
    @Test("prints an RFC 4180 header and one row per item, fields flattened into sorted columns")
    func golden() {
        let expected = "source,kind,id,title,subtitle,url,date,count,nested,ratio,tags,fields.title\r\n"
            + "notes,record,1,\"Buy \"\"milk\"\", eggs | bread\nand 日本語 café 👍\",,https://example.com/a?b=1,"
            + "2026-11-20T08:00:00Z,3,\"{\"\"a\"\":null,\"\"z\"\":1}\",21.3,\"[\"\"a\"\",\"\"b\"\"]\","
            + "\"Buy \"\"milk\"\", eggs | bread\nand 日本語 café 👍\"\r\n"
            + "notes,record,2,Plain,,,2026-11-21T00:00:00Z,4,,,,\r\n"
        #expect(CSVRenderer().render(SampleReports.golden) == expected)
    }

    @Test("quotes at a cell's edges, runs of quotes and a lone carriage return are quoted as RFC 4180 asks")
    func quotingEdges() {
        let cells = ["\"", "\"\"", "a\"", "\"a", "a\"\"\"b", "a\rb", "a\r\nb", "a,b", "plain", "", "日\"本 👍"]
        let items = cells.enumerated().map { index, cell in
            Item(kind: .record, id: String(index), title: cell, fields: ["cell": .string(cell)])
        }
        let report = AggregateReport(
            generatedAt: SampleReports.date("2026-11-22T10:00:00Z"),
            sources: [SourceReport(descriptor: SampleReports.descriptor("s", "files"), status: .ok, items: items)])
        /// The rule, spelled out on Unicode scalars (`"\r\n"` is one `Character`, so `contains("\n")` misses it).
        func quoted(_ cell: String) -> String {
            guard cell.unicodeScalars.contains(where: { "\",\n\r".unicodeScalars.contains($0) }) else { return cell }
            return "\"" + cell.unicodeScalars.map { $0 == "\"" ? "\"\"" : String($0) }.joined() + "\""
        }
        let expected = "source,kind,id,title,subtitle,url,date,cell\r\n" + cells.enumerated().map { index, cell in
            "s,record,\(index),\(quoted(cell)),,,,\(quoted(cell))\r\n"
        }.joined()
        #expect(CSVRenderer().render(report) == expected)
        #expect(quoted("a\"b") == "\"a\"\"b\"")
    }

    @Test("a run without items is just the header")
    func headerOnly() {
        #expect(CSVRenderer().render(SampleReports.empty) == "source,kind,id,title,subtitle,url,date\r\n")
    }

    @Test("a CSV reader gets every value back, line breaks, quotes and commas included")
    func roundTrips() throws {
        let text = CSVRenderer().render(SampleReports.everyKind)
        let reader = try CSVReader(string: text, hasHeaderRow: true)
        let header = try #require(reader.headerRow)
        var rows: [[String: String]] = []
        while let row = reader.next() {
            #expect(row.count == header.count)
            rows.append(Dictionary(uniqueKeysWithValues: zip(header, row)))
        }
        #expect(rows.count == 9)
        #expect(rows[0]["title"] == SampleReports.trickyTitle)
        #expect(rows[1]["title"] == SampleReports.longTitle)
        #expect(rows[3]["temperature"] == "21.3")
        #expect(rows[3]["temperatureUnit"] == "°C")
        #expect(rows[5]["labels"] == #"[{"name":"bug"},{"name":"ui"}]"#)
        #expect(rows[5]["number"] == "12")
        #expect(rows[8]["source"] == "news")
        #expect(rows[0]["humidity"] == "")
    }

    @Test("limit caps the rows of each source")
    func limitPerSource() throws {
        let text = CSVRenderer().render(SampleReports.everyKind, RenderOptions(limit: 1))
        let reader = try CSVReader(string: text, hasHeaderRow: true)
        var sources: [String] = []
        while let row = reader.next() { sources.append(row[0]) }
        #expect(sources == ["notes", "weather", "issues", "movies", "news"])
    }
}
