import Testing
@testable import Directions

/// The instruction tables: every language says everything English says, in its own grammar.
@Suite("Instruction tables") struct PhrasebookTests {
    @Test func englishHasEveryPhrase() {
        let missing = Phrase.allCases.filter { Phrasebook.english.phrases[$0] == nil }
        #expect(missing.isEmpty, "English lacks \(missing)")
    }

    @Test("every table has every key the English one has", arguments: Phrasebook.all.dropFirst().map(\.language))
    func everyKey(language: String) throws {
        let book = try #require(Phrasebook.matching(language))
        let missing = Phrasebook.english.phrases.keys.filter { book.phrases[$0] == nil }.map(\.rawValue).sorted()
        #expect(missing.isEmpty, "\(language) lacks \(missing)")
        let extra = book.phrases.keys.filter { Phrasebook.english.phrases[$0] == nil }
        #expect(extra.isEmpty)
        // Every placeholder a template uses is one English uses for the same key (the road taken
        // may be said in its "onto" or its "on" form).
        func road(_ p: String) -> String { p == "{onStreet}" ? "{street}" : p }
        for (key, template) in book.phrases {
            let english = Set(Self.placeholders(Phrasebook.english.phrases[key]!).map(road))
            for placeholder in Self.placeholders(template) {
                #expect(english.contains(road(placeholder)), "\(language) \(key.rawValue) uses \(placeholder)")
            }
        }
        #expect(book.ordinals.count >= 10)
    }

    @Test func atLeastTheTwelveLanguagesAsked() {
        #expect(Set(Phrasebook.all.map(\.language)) == ["en", "de", "fr", "it", "es", "pt", "nl", "fi", "sv", "da", "nb", "pl"])
    }

    @Test("language tags choose a table, any region", arguments: [
        ("en-GB", "en"), ("en-US", "en"), ("de-DE", "de"), ("de-AT", "de"), ("fr-CA", "fr"), ("pt-BR", "pt"), ("nb-NO", "nb"),
        ("no", "nb"), ("nn-NO", "nb"), ("sv_SE", "sv"), ("PL", "pl"),
    ])
    func tags(tag: String, language: String) {
        #expect(Phrasebook.matching(tag)?.language == language)
    }

    @Test func unknownLanguagesHaveNoTable() {
        #expect(Phrasebook.matching("xx-YY") == nil)
        #expect(InstructionText(language: "tlh", units: .metric) == nil)
    }

    @Test func ordinals() {
        #expect((1...4).map(Phrasebook.english.ordinal) == ["1st", "2nd", "3rd", "4th"])
        #expect(Phrasebook.english.ordinal(11) == "11th" && Phrasebook.english.ordinal(22) == "22nd")
        #expect(Phrasebook.german.ordinal(2) == "zweite" && Phrasebook.german.ordinal(12) == "12.")
        #expect(Phrasebook.polish.ordinal(3) == "trzecim")
        #expect(Phrasebook.french.ordinal(1) == "première")
    }

    @Test func germanStreetsTakeTheirArticle() {
        #expect(Phrasebook.germanArticle("Hauptstraße", true) == "die ")
        #expect(Phrasebook.germanArticle("Hauptstraße", false) == "der ")
        #expect(Phrasebook.germanArticle("Bismarckplatz", true) == "den ")
        #expect(Phrasebook.germanArticle("Mainufer", false) == "dem ")
        #expect(Phrasebook.germanArticle("Kurfürsten-Anlage", true) == "die ")
        #expect(Phrasebook.germanArticle("B 3", true) == "die ")
        #expect(Phrasebook.germanArticle("Unter den Linden", true) == "")
        #expect(Phrasebook.germanArticle("Am Markt", true) == "")
    }

    @Test func frenchAndPortugueseStreetsAndContractions() throws {
        #expect(Phrasebook.frenchArticle("Boulevard du Larvotto", true) == "le ")
        #expect(Phrasebook.frenchArticle("Avenue de Grande-Bretagne", true) == "l'")
        #expect(Phrasebook.frenchArticle("Rue Grimaldi", true) == "la ")
        #expect(Phrasebook.frenchArticle("A 8", true) == "l'")
        #expect(Phrasebook.frenchArticle("Rond-Point Sainte-Dévote", true) == "le ")
        let pt = try #require(InstructionText(language: "pt-PT", units: .metric))
        let turn = pt.render(.init(kind: .continue, direction: .left, street: RoadName(name: "Rua de Santa Catarina", refs: [], exits: "")))
        #expect(turn.plain == "Vire à esquerda para continuar na Rua de Santa Catarina")
        let fr = try #require(InstructionText(language: "fr", units: .metric))
        #expect(fr.render(.init(kind: .turn, direction: .right, street: RoadName(name: "Boulevard du Larvotto", refs: [], exits: ""))).plain
                == "Tournez à droite sur le Boulevard du Larvotto")
        var sign = Signpost()
        sign.destinations = ["Autres Directions"]
        #expect(fr.render(.init(kind: .fork, direction: .slightRight, street: RoadName(name: "", refs: [], exits: ""), sign: sign)).plain
                == "Restez à droite en direction d'Autres Directions")
        let es = try #require(InstructionText(language: "es", units: .metric))
        #expect(es.render(.init(kind: .merge, direction: .slightLeft, street: RoadName(name: "Paseo de la Castellana", refs: [], exits: ""))).plain
                == "Incorpórate ligeramente a la izquierda al Paseo de la Castellana")
    }

    @Test func distancesInEachLanguageAndUnit() throws {
        let en = try #require(InstructionText(language: "en-GB", units: .metric))
        #expect(en.distance(87) == "90 m" && en.distance(1440) == "1.4 km")
        #expect(try #require(InstructionText(language: "de", units: .metric)).distance(1440) == "1,4 km")
        let us = try #require(InstructionText(language: "en-US", units: .imperial))
        #expect(us.distance(100) == "330 ft" && us.distance(1609) == "1.0 mi")
        #expect(try #require(InstructionText(language: "fi", units: .imperial)).distance(3000) == "1,9 mi")
        #expect(try #require(InstructionText(language: "sv", units: .metric)).continueFor(2500) == "Fortsätt i 2,5 km")
    }

    static func placeholders(_ template: String) -> [String] {
        var out: [String] = []
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            out.append(String(rest[open...close]))
            rest = rest[rest.index(after: close)...]
        }
        return out
    }
}
