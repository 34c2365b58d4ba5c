import Foundation
import SQLiteStore
import Testing

@Suite("Data directory")
struct DataDirectoryTests {
    let home = URL(fileURLWithPath: "/home/someone")

    @Test("AGGREGATE_HOME wins over XDG_DATA_HOME and the home directory")
    func aggregateHome() {
        let directory = DataDirectory.resolve(
            environment: ["AGGREGATE_HOME": "/tmp/agg", "XDG_DATA_HOME": "/xdg"], home: home)
        #expect(directory.url.path == "/tmp/agg")
        #expect(directory.databaseURL.path == "/tmp/agg/aggregate.sqlite")
    }

    @Test("XDG_DATA_HOME/aggregate when AGGREGATE_HOME is unset or empty")
    func xdg() {
        #expect(DataDirectory.resolve(environment: ["XDG_DATA_HOME": "/xdg"], home: home).url.path == "/xdg/aggregate")
        #expect(DataDirectory.resolve(environment: ["AGGREGATE_HOME": "", "XDG_DATA_HOME": "/xdg"], home: home).url.path
            == "/xdg/aggregate")
    }

    @Test("~/.local/share/aggregate otherwise; a relative XDG_DATA_HOME is ignored as the spec says")
    func fallback() {
        #expect(DataDirectory.resolve(environment: [:], home: home).url.path == "/home/someone/.local/share/aggregate")
        #expect(DataDirectory.resolve(environment: ["XDG_DATA_HOME": "relative"], home: home).url.path
            == "/home/someone/.local/share/aggregate")
    }
}
