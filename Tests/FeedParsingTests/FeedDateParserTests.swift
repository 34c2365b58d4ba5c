import Foundation
import Testing
@testable import FeedParsing

@Suite("Feed dates")
struct FeedDateParserTests {
    @Test("RFC 822 with offsets, named zones, missing seconds and two-digit years", arguments: [
        ("Sun, 06 Jul 2014 12:56:00 GMT", "2014-07-06T12:56:00Z"),
        ("Sun, 06 Jul 2014 12:56:00 UT", "2014-07-06T12:56:00Z"),
        ("Sun, 06 Jul 2014 12:56:00 Z", "2014-07-06T12:56:00Z"),
        ("Sun, 06 Jul 2014 12:56:00 +0200", "2014-07-06T10:56:00Z"),
        ("Sun, 06 Jul 2014 12:56:00 -05:30", "2014-07-06T18:26:00Z"),
        ("Tue, 21 Aug 2012 11:33:00 EST", "2012-08-21T16:33:00Z"),
        ("Tue, 21 Aug 2012 11:33:00 EDT", "2012-08-21T15:33:00Z"),
        ("Tue, 21 Aug 2012 11:33:00 CST", "2012-08-21T17:33:00Z"),
        ("Tue, 21 Aug 2012 11:33:00 CDT", "2012-08-21T16:33:00Z"),
        ("Tue, 21 Aug 2012 11:33:00 MST", "2012-08-21T18:33:00Z"),
        ("Tue, 21 Aug 2012 11:33:00 MDT", "2012-08-21T17:33:00Z"),
        ("Tue, 21 Aug 2012 11:33:00 PST", "2012-08-21T19:33:00Z"),
        ("Tue, 21 Aug 2012 11:33:00 pdt", "2012-08-21T18:33:00Z"),
        ("01 Jan 2004 19:48 PST", "2004-01-02T03:48:00Z"),
        ("Thu, 01 Jan 04 19:48:21 GMT", "2004-01-01T19:48:21Z"),
        ("Fri, 01 Jan 99 10:00:00 GMT", "1999-01-01T10:00:00Z"),
        ("Sunday, 06-Jul-14 12:56:00 GMT", "2014-07-06T12:56:00Z"),
        ("6 July 2014 12:56:00 GMT+2", "2014-07-06T10:56:00Z"),
        ("Sun, 6 Jul 2014", "2014-07-06T00:00:00Z"),
        ("Jul 06, 2014 12:56:00 GMT", "2014-07-06T12:56:00Z"),
    ])
    func rfc822(text: String, expected: String) {
        #expect(FeedDateParser.date(from: text) == Date(iso: expected))
    }

    @Test("RFC 822 military zones, with RFC 822's signs", arguments: [
        ("Thu, 01 Jan 2004 19:48:21 A", "2004-01-01T20:48:21Z"),
        ("Thu, 01 Jan 2004 19:48:21 M", "2004-01-02T07:48:21Z"),
        ("Thu, 01 Jan 2004 19:48:21 N", "2004-01-01T18:48:21Z"),
        ("Thu, 01 Jan 2004 19:48:21 Y", "2004-01-01T07:48:21Z"),
    ])
    func militaryZones(text: String, expected: String) {
        #expect(FeedDateParser.date(from: text) == Date(iso: expected))
    }

    @Test("ISO 8601 and RFC 3339, with and without fractions and offsets", arguments: [
        ("2014-07-06T12:56:00Z", "2014-07-06T12:56:00Z"),
        ("2014-07-06T14:56:00+02:00", "2014-07-06T12:56:00Z"),
        ("2014-07-06T07:56:00-0500", "2014-07-06T12:56:00Z"),
        ("2014-07-06T12:56:00", "2014-07-06T12:56:00Z"),
        ("2014-07-06 12:56:00Z", "2014-07-06T12:56:00Z"),
        ("2014-07-06T12:56Z", "2014-07-06T12:56:00Z"),
        ("2014-07-06", "2014-07-06T00:00:00Z"),
        ("20140706T125600Z", "2014-07-06T12:56:00Z"),
        ("  2017-06-15T17:29:47+00:00\n", "2017-06-15T17:29:47Z"),
    ])
    func iso8601(text: String, expected: String) {
        #expect(FeedDateParser.date(from: text) == Date(iso: expected))
    }

    @Test("fractional seconds are kept")
    func fractions() throws {
        let date = try #require(FeedDateParser.date(from: "2014-07-06T12:56:00.250Z"))
        #expect(date.timeIntervalSince(Date(iso: "2014-07-06T12:56:00Z")) == 0.25)
    }

    @Test("shapes only the fallback formatters know")
    func fallback() {
        #expect(FeedDateParser.date(from: "Sun Jul 06 12:56:00 UTC 2014") == Date(iso: "2014-07-06T12:56:00Z"))
        #expect(FeedDateParser.date(from: "2014/07/06 12:56:00") == Date(iso: "2014-07-06T12:56:00Z"))
    }

    @Test("what is not a date is nil", arguments: ["", "sometime soon", "32 Foo 2020 10:00", "2014-13-45", "Sun, 06 Jul"])
    func notADate(text: String) {
        #expect(FeedDateParser.date(from: text) == nil)
    }
}
