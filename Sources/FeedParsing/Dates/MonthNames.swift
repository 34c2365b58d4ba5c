/// Month names in the languages feeds are written in, for the RFC 822 parser.
///
/// A word is matched on its first three letters (four for French `juin`/`juil`), after `DateScanner` has
/// lower-cased it and folded accents (`févr` → `fevr`, `Mär` → `mar`, `říjen` → `rijen`), so abbreviations
/// and full names, with or without a dot, all match: `Set`, `setembro`, `settembre`, `sept.`, `September`.
/// Every prefix below names one month in every language it occurs in; prefixes that would not (French
/// `jui…`, Czech `čer…`) are told apart by what follows. Weekdays need no table: whatever word comes before
/// the day is skipped (`FeedDateParser`), so `Seg`, `mar.`, `Di` and `Sáb` cost nothing.
///
/// English, Portuguese, Spanish, French, German, Italian, Dutch, Swedish, Danish, Norwegian, Polish
/// (nominative and genitive), Czech (full names) and Catalan.
enum MonthNames {
    /// 1…12, or nil when the word is no month name. A switch over packed integers: no strings, no ICU.
    static func month(of word: DateScanner.Word) -> Int? {
        guard word.length >= 3 else { return nil }
        switch word.prefix3 {
        case 0x6A616E, 0x656E65, 0x67656E, 0x737479, 0x6C6564: return 1  // jan ene gen sty led
        case 0x666562, 0x666576, 0x6C7574, 0x756E6F: return 2  // feb fev lut uno(r)
        case 0x6D6172, 0x6D727A, 0x6D7274, 0x6D6161, 0x627265: return 3  // mar mrz mrt maa(rt) bre(zen)
        case 0x617072, 0x616272, 0x617672, 0x6B7769, 0x647562: return 4  // apr abr avr kwi dub
        case 0x6D6179, 0x6D6169, 0x6D6167, 0x6D6569, 0x6D616A, 0x6B7665: return 5  // may mai mag mei maj kve(ten)
        case 0x6A756E, 0x676975, 0x637A65: return 6  // jun giu cze
        case 0x6A756C, 0x6C7567, 0x6C6970: return 7  // jul lug lip
        case 0x617567, 0x61676F, 0x616F75, 0x736965, 0x737270: return 8  // aug ago aou(t) sie srp
        case 0x736570, 0x736574, 0x77727A, 0x7A6172: return 9  // sep set wrz zar(i)
        case 0x6F6374, 0x6F7574, 0x6F7474, 0x6F6B74, 0x70617A, 0x72696A: return 10  // oct out ott okt paz rij(en)
        case 0x6E6F76, 0x6C6973: return 11  // nov lis(topad)
        case 0x646563, 0x64657A, 0x646963, 0x646573, 0x677275, 0x70726F: return 12  // dec dez dic des gru pro(sinec)
        case 0x6A7569:  // French juin / juil(let)
            switch word.prefix4 {
            case 0x6A75696E: return 6
            case 0x6A75696C: return 7
            default: return nil
            }
        case 0x636572:  // Czech červen / června (June), červenec / července (July)
            return word.length >= 8 ? 7 : word.length == 6 ? 6 : nil
        default: return nil
        }
    }

    /// `de`/`del` between the parts of a Portuguese or Spanish date (`24 de setembro de 2018`).
    static func isConnective(_ word: DateScanner.Word) -> Bool {
        word.key == 0x6465 || word.key == 0x64656C
    }
}
