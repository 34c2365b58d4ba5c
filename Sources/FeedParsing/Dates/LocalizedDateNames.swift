import Foundation

/// RFC 822 dates written in another language (`Seg, 24 Set 2018 19:42:40 -0300`, `mar., 5 févr. 2019 …`,
/// `Di, 05 Mär 2019 …`, `24 de setembro de 2018 …`), rewritten in English for the fast parser.
///
/// Only tried when the English parse failed, so English and numeric dates pay nothing. Day and month names of
/// Portuguese, Spanish, French, German, Italian, Dutch, Swedish, Danish, Norwegian, Catalan and Polish (nominative
/// and genitive), full or abbreviated, any case, with or without accents and a trailing dot. The weekday is
/// dropped (it says nothing the date does not), so a weekday that shares its letters with a month in another
/// language (`mar` for Tuesday and March) cannot be mistaken for one.
enum LocalizedDateNames {
    /// `text` with its month name in English and its weekday, `de`/`del`/`of` and stray dots removed; nil when
    /// no foreign month name was found.
    static func english(_ text: String) -> String? {
        let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        var tokens = folded.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" }).map(String.init)
        tokens = tokens.map { token in
            // A dot after letters ends an abbreviation ("févr."), after a day's number it is German ("5. März");
            // dots between digits belong to a date or a time.
            guard token.last == ".", let body = Optional(token.dropLast()), !body.isEmpty else { return token }
            return body.allSatisfy(\.isLetter) || (body.count <= 2 && body.allSatisfy(\.isNumber)) ? String(body) : token
        }
        var monthFound = false
        var words: [String] = []
        for (index, token) in tokens.enumerated() {
            guard token.allSatisfy({ $0.isLetter || $0 == "-" }), token.contains(where: \.isLetter) else {
                words.append(token)
                continue
            }
            if ["de", "del", "of", "den", "der"].contains(token) { continue }
            if index == 0, weekdays.contains(token), tokens.count > 1 {
                continue  // the weekday
            }
            if !monthFound, let month = months[token] {
                words.append(month)
                monthFound = true
                continue
            }
            words.append(token)  // a zone name (GMT, EST) or something the parser judges
        }
        guard monthFound else { return nil }
        return words.joined(separator: " ")
    }

    /// English three-letter month by every spelling: full names and abbreviations, folded (no accents, lower case).
    private static let months: [String: String] = {
        let names: [(english: String, spellings: [String])] = [
            // English too, for a foreign weekday before an English month ("Mié, 06 Feb 2019").
            ("Jan", ["jan", "january"]), ("Feb", ["feb", "february"]), ("Mar", ["mar", "march"]), ("Apr", ["apr"]),
            ("May", ["may"]), ("Jun", ["jun", "june"]), ("Jul", ["jul", "july"]), ("Aug", ["aug"]),
            ("Sep", ["sep", "sept"]), ("Oct", ["oct"]), ("Nov", ["nov"]), ("Dec", ["dec"]),
            ("Jan", ["januar", "janeiro", "enero", "janvier", "janv", "jänner", "jaenner", "gennaio", "gen", "januari", "januar",
                     "gener", "styczen", "stycznia", "sty", "ene"]),
            ("Feb", ["fevereiro", "fev", "febrero", "fevrier", "fevr", "februar", "febbraio", "februari", "febrer", "luty",
                     "lutego", "lut"]),
            ("Mar", ["marco", "marzo", "mars", "marz", "mrz", "maerz", "maart", "mrt", "maa", "mart", "marc", "marzec",
                     "marca"]),
            ("Apr", ["abril", "abr", "avril", "avr", "aprile", "april", "abril", "kwiecien", "kwietnia", "kwi"]),
            ("May", ["maio", "mai", "mayo", "maggio", "mag", "mei", "maj", "maig", "maja"]),
            ("Jun", ["junho", "junio", "juin", "juni", "giugno", "giu", "juny", "czerwiec", "czerwca", "cze"]),
            ("Jul", ["julho", "julio", "juillet", "juil", "juli", "luglio", "lug", "juliol", "lipiec", "lipca", "lip"]),
            ("Aug", ["agosto", "ago", "aout", "august", "augustus", "augusti", "agost", "sierpien", "sierpnia", "sie"]),
            ("Sep", ["setembro", "set", "septiembre", "setiembre", "sept", "septembre", "september", "settembre", "setembre",
                     "wrzesien", "wrzesnia", "wrz"]),
            ("Oct", ["outubro", "out", "octubre", "octobre", "oktober", "okt", "ottobre", "ott", "october", "pazdziernik",
                     "pazdziernika", "paz"]),
            ("Nov", ["novembro", "noviembre", "novembre", "november", "listopad", "listopada", "lis"]),
            ("Dec", ["dezembro", "dez", "diciembre", "dic", "decembre", "dezember", "dicembre", "december", "desember",
                     "des", "desembre", "grudzien", "grudnia", "gru"]),
        ]
        var table: [String: String] = [:]
        for (english, spellings) in names {
            for spelling in spellings {
                table[spelling.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)] = english
            }
        }
        return table
    }()

    /// Weekday names and abbreviations, folded; only ever dropped, so one shared by two languages is harmless.
    private static let weekdays: Set<String> = [
        // Portuguese
        "segunda", "seg", "terca", "ter", "quarta", "qua", "quinta", "qui", "sexta", "sex", "sabado", "sab", "domingo", "dom",
        "segunda-feira", "terca-feira", "quarta-feira", "quinta-feira", "sexta-feira",
        // Spanish
        "lunes", "lun", "martes", "mar", "miercoles", "mie", "jueves", "jue", "viernes", "vie",
        // French
        "lundi", "mardi", "mercredi", "mer", "jeudi", "jeu", "vendredi", "ven", "samedi", "sam", "dimanche", "dim",
        // German
        "montag", "mo", "dienstag", "di", "mittwoch", "mi", "donnerstag", "do", "freitag", "fr", "samstag", "sa", "sonntag",
        "so",
        // Italian
        "lunedi", "martedi", "mercoledi", "giovedi", "gio", "venerdi", "sabato", "domenica",
        // Dutch
        "maandag", "ma", "dinsdag", "woensdag", "wo", "donderdag", "vrijdag", "vr", "zaterdag", "za", "zondag", "zo",
        // Swedish, Danish, Norwegian
        "mandag", "man", "mandag", "tirsdag", "tis", "tisdag", "onsdag", "ons", "torsdag", "tor", "fredag", "fre", "lordag",
        "lor", "sondag", "son", "mån", "tors",
        // Catalan
        "dilluns", "dl", "dimarts", "dt", "dimecres", "dc", "dijous", "dj", "divendres", "dv", "dissabte", "ds", "diumenge",
        "dg",
        // Polish
        "poniedzialek", "pon", "wtorek", "wt", "sroda", "sr", "czwartek", "czw", "piatek", "pt", "sobota", "sob",
        "niedziela", "niedz", "nd",
        // English, when the month is not
        "mon", "tue", "wed", "thu", "fri", "sat", "sun",
    ].reduce(into: Set<String>()) { $0.insert($1.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)) }
}
