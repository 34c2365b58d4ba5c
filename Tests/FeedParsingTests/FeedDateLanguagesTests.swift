import Foundation
import Testing
@testable import FeedParsing

/// RFC 822 dates as feeds in other languages write them. Every expected instant was worked out by hand from
/// the offset (`-0300` is three hours behind UTC), never by running the parser.
@Suite("Feed dates in other languages")
struct FeedDateLanguagesTests {
    @Test("day and month names in the languages feeds use parse to the right instant", arguments: [
        // Portuguese
        ("Seg, 24 Set 2018 19:42:40 -0300", "2018-09-24T22:42:40Z"),
        ("Qua, 31 Out 2018 10:00:00 -0200", "2018-10-31T12:00:00Z"),
        ("Ter, 05 Fev 2019 10:00:00 -0200", "2019-02-05T12:00:00Z"),
        ("Sáb, 01 Dez 2018 08:30:00 +0000", "2018-12-01T08:30:00Z"),
        ("Segunda-feira, 24 de setembro de 2018 19:42:40 -0300", "2018-09-24T22:42:40Z"),
        ("Seg, 24 Set 2018 19:42:40 BRT", "2018-09-24T22:42:40Z"),
        // Spanish
        ("Mar, 05 Mar 2019 10:00:00 +0100", "2019-03-05T09:00:00Z"),
        ("Sáb, 12 Dic 2020 08:00:00 +0100", "2020-12-12T07:00:00Z"),
        ("mié., 2 ene. 2019 10:00:00 GMT", "2019-01-02T10:00:00Z"),
        ("5 de mayo de 2019 10:00:00 +0200", "2019-05-05T08:00:00Z"),
        ("jue, 19 sept 2019", "2019-09-19T00:00:00Z"),
        ("vie, 20 setiembre 2019 12:00 -0500", "2019-09-20T17:00:00Z"),
        // French
        ("mar., 5 févr. 2019 10:00:00 +0100", "2019-02-05T09:00:00Z"),
        ("lun. 1 juil. 2019 08:00:00 +0200", "2019-07-01T06:00:00Z"),
        ("jeu., 6 juin 2019", "2019-06-06T00:00:00Z"),
        ("ven, 2 août 2019 12:00:00 GMT", "2019-08-02T12:00:00Z"),
        ("dim. 22 déc. 2019 23:30:00 +0100", "2019-12-22T22:30:00Z"),
        ("mercredi 17 avril 2019 10:00:00 +0200", "2019-04-17T08:00:00Z"),
        // German
        ("Di, 05 Mär 2019 10:00:00 +0100", "2019-03-05T09:00:00Z"),
        ("Mo, 07 Okt 2019 08:00:00 +0200", "2019-10-07T06:00:00Z"),
        ("Donnerstag, 12. Dezember 2019 10:00:00 MEZ", "2019-12-12T09:00:00Z"),
        ("Mi, 01 Mai 2019 12:00:00 MESZ", "2019-05-01T10:00:00Z"),
        ("Fr, 03 Mrz 2017 07:15:00 +0100", "2017-03-03T06:15:00Z"),
        ("Mo, 07 Jän 2019", "2019-01-07T00:00:00Z"),
        // Italian
        ("lun, 17 giu 2019 10:00:00 +0200", "2019-06-17T08:00:00Z"),
        ("mer, 10 lug 2019", "2019-07-10T00:00:00Z"),
        ("gio, 01 ago 2019 10:00:00 +0200", "2019-08-01T08:00:00Z"),
        ("Martedì, 5 marzo 2019 10:00:00 +0100", "2019-03-05T09:00:00Z"),
        ("ven 4 ott 2019", "2019-10-04T00:00:00Z"),
        ("mar, 01 gen 2019 00:00:00 +0100", "2018-12-31T23:00:00Z"),
        // Dutch
        ("5 mei 2019", "2019-05-05T00:00:00Z"),
        ("di, 5 mrt 2019 10:00:00 +0100", "2019-03-05T09:00:00Z"),
        ("maandag 1 april 2019", "2019-04-01T00:00:00Z"),
        ("zo, 31 maart 2019 23:00:00 +0200", "2019-03-31T21:00:00Z"),
        ("wo, 2 okt 2019", "2019-10-02T00:00:00Z"),
        // Swedish, Danish, Norwegian
        ("mån, 4 mar 2019 09:00:00 +0100", "2019-03-04T08:00:00Z"),
        ("fre, 3 maj 2019 12:00:00 +0200", "2019-05-03T10:00:00Z"),
        ("søn, 1 des 2019 10:00:00 +0100", "2019-12-01T09:00:00Z"),
        ("tirsdag 5. marts 2019", "2019-03-05T00:00:00Z"),
        // Polish
        ("Pon, 11 Lis 2019 10:00:00 +0100", "2019-11-11T09:00:00Z"),
        ("śr, 2 paź 2019", "2019-10-02T00:00:00Z"),
        ("czw., 12 września 2019 08:00:00 +0200", "2019-09-12T06:00:00Z"),
        ("pt, 14 cze 2019", "2019-06-14T00:00:00Z"),
        // Czech
        ("út, 5 března 2019 10:00:00 +0100", "2019-03-05T09:00:00Z"),
        ("po 10. června 2019", "2019-06-10T00:00:00Z"),
        ("po 1. července 2019", "2019-07-01T00:00:00Z"),
        ("po 28. října 2019", "2019-10-28T00:00:00Z"),
        // Catalan
        ("dt., 5 de març de 2019 10:00:00 +0100", "2019-03-05T09:00:00Z"),
        ("dl, 2 de des. 2019", "2019-12-02T00:00:00Z"),
    ])
    func languages(text: String, expected: String) {
        #expect(FeedDateParser.date(from: text) == Date(iso: expected))
    }

    @Test("names match whatever their case, accents and trailing dot", arguments: [
        "mar., 5 févr. 2019 10:00:00 +0100",
        "MAR., 5 FÉVR. 2019 10:00:00 +0100",
        "Mar 5 Févr 2019 10:00:00 +0100",
        "mar, 5 fevr 2019 10:00:00 +0100",
        "mar., 5 fe\u{301}vr. 2019 10:00:00 +0100",  // é as e + a combining acute accent (NFD)
        "5 février 2019 10:00:00 +0100",
        "Mardi 5 Fevrier 2019 10:00:00 +0100",
    ])
    func caseAccentsAndDots(text: String) {
        #expect(FeedDateParser.date(from: text) == Date(iso: "2019-02-05T09:00:00Z"))
    }

    @Test("a word that is a weekday in one language and a month in another is read by its place", arguments: [
        ("mar., 05 mar. 2019", "2019-03-05T00:00:00Z"),  // Spanish/French Tuesday before the day
        ("Mar 05, 2019", "2019-03-05T00:00:00Z"),  // English month first
        ("Sunday, July 6, 2014 12:56:00 GMT", "2014-07-06T12:56:00Z"),  // weekday, then month first
        ("maandag 4 maart 2019", "2019-03-04T00:00:00Z"),  // Dutch Monday shares maart's first letters
    ])
    func wordPlace(text: String, expected: String) {
        #expect(FeedDateParser.date(from: text) == Date(iso: expected))
    }

    @Test("words that are no month, or a month without a year, are not a date", arguments: [
        "Seg, 24 Xyz 2018 19:42:40 -0300",
        "24 de de 2018",
        "5 févr",
        "juix 5 2019",
        "5 × 2019",
    ])
    func notADate(text: String) {
        #expect(FeedDateParser.date(from: text) == nil)
    }
}
