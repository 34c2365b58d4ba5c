// Parses one set of dates N times: `date-bench SET N` prints how many parsed. Instructions are counted from
// outside (run.sh), so nothing here times anything.
let sets: [String: [String]] = [
    "en": ["Sun, 06 Jul 2014 12:56:00 GMT", "Tue, 21 Aug 2012 11:33:00 +0200", "Wed, 02 Oct 2002 13:00:00 EST",
           "Mon, 15 Dec 2025 08:01:59 -0500", "Fri, 01 Jan 99 10:00:00 GMT", "Thu, 29 Feb 2024 23:59:59 Z"],
    "iso": ["2014-07-06T12:56:00Z", "2014-07-06T14:56:00+02:00", "2025-12-15T08:01:59.123-05:00", "2014-07-06"],
    "foreign": ["Seg, 24 Set 2018 19:42:40 -0300", "mar., 5 févr. 2019 10:00:00 +0100", "Di, 05 Mär 2019 10:00:00 +0100",
                "5 mei 2019", "Sáb, 12 Dic 2020 08:00:00 +0100", "lun, 17 giu 2019 10:00:00 +0200"],
]
guard CommandLine.arguments.count == 3, let texts = sets[CommandLine.arguments[1]], let count = Int(CommandLine.arguments[2])
else { fatalError("usage: date-bench en|iso|foreign COUNT") }
var parsed = 0
for index in 0..<count where FeedDateParser.date(from: texts[index % texts.count]) != nil { parsed += 1 }
print(parsed)
