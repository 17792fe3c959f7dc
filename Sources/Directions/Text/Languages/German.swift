extension Phrasebook {
    /// German (`de`, `de-DE`, `de-AT`, `de-CH`, …), addressing the driver as "Sie".
    public static let german = Phrasebook(
        language: "de",
        phrases: [
            .depart: "Fahren Sie auf {onStreet} los", .departUnnamed: "Fahren Sie am Startpunkt los",
            .head: "Fahren Sie Richtung {direction} auf {onStreet}", .headUnnamed: "Fahren Sie Richtung {direction}",
            .turnSharpLeft: "Biegen Sie scharf links auf {street} ab", .turnSharpLeftUnnamed: "Biegen Sie scharf links ab",
            .turnLeft: "Biegen Sie links auf {street} ab", .turnLeftUnnamed: "Biegen Sie links ab",
            .turnSlightLeft: "Fahren Sie leicht links auf {street}", .turnSlightLeftUnnamed: "Halten Sie sich leicht links",
            .turnSlightRight: "Fahren Sie leicht rechts auf {street}", .turnSlightRightUnnamed: "Halten Sie sich leicht rechts",
            .turnRight: "Biegen Sie rechts auf {street} ab", .turnRightUnnamed: "Biegen Sie rechts ab",
            .turnSharpRight: "Biegen Sie scharf rechts auf {street} ab", .turnSharpRightUnnamed: "Biegen Sie scharf rechts ab",
            .straight: "Fahren Sie weiter auf {onStreet}", .straightUnnamed: "Fahren Sie geradeaus weiter",
            .continue: "Biegen Sie {modifier} ab, um auf {onStreet} zu bleiben", .continueUnnamed: "Biegen Sie {modifier} ab",
            .endOfRoad: "Biegen Sie am Ende der Straße {modifier} auf {street} ab",
            .endOfRoadUnnamed: "Biegen Sie am Ende der Straße {modifier} ab",
            .keepLeft: "Halten Sie sich links auf {onStreet}", .keepLeftUnnamed: "Halten Sie sich links",
            .keepRight: "Halten Sie sich rechts auf {onStreet}", .keepRightUnnamed: "Halten Sie sich rechts",
            .merge: "Fädeln Sie sich {modifier} auf {street} ein", .mergeUnnamed: "Fädeln Sie sich {modifier} ein",
            .enterMotorway: "Fahren Sie auf {street} auf", .enterMotorwayUnnamed: "Fahren Sie auf die Autobahn auf",
            .rampLeft: "Nehmen Sie die Auffahrt links auf {street}", .rampLeftUnnamed: "Nehmen Sie die Auffahrt links",
            .rampRight: "Nehmen Sie die Auffahrt rechts auf {street}", .rampRightUnnamed: "Nehmen Sie die Auffahrt rechts",
            .exitLeft: "Nehmen Sie die Ausfahrt links auf {street}", .exitLeftUnnamed: "Nehmen Sie die Ausfahrt links",
            .exitRight: "Nehmen Sie die Ausfahrt auf {street}", .exitRightUnnamed: "Nehmen Sie die Ausfahrt",
            .exitNumberLeft: "Nehmen Sie die Ausfahrt {exit} links auf {street}", .exitNumberLeftUnnamed: "Nehmen Sie die Ausfahrt {exit} links",
            .exitNumberRight: "Nehmen Sie die Ausfahrt {exit} auf {street}", .exitNumberRightUnnamed: "Nehmen Sie die Ausfahrt {exit}",
            .towards: "{instruction} Richtung {destination}",
            .uTurn: "Wenden Sie auf {onStreet}", .uTurnUnnamed: "Wenden Sie",
            .ferry: "Nehmen Sie die Fähre {street}", .ferryUnnamed: "Nehmen Sie die Fähre",
            .walkBike: "{instruction}. Schieben Sie Ihr Fahrrad", .rideBike: "{instruction}. Fahren Sie wieder mit dem Fahrrad",
            .roundabout: "Nehmen Sie im Kreisverkehr die {ordinal} Ausfahrt auf {street}",
            .roundaboutUnnamed: "Nehmen Sie im Kreisverkehr die {ordinal} Ausfahrt",
            .rotary: "Nehmen Sie im Kreisverkehr {rotary} die {ordinal} Ausfahrt auf {street}",
            .rotaryUnnamed: "Nehmen Sie im Kreisverkehr {rotary} die {ordinal} Ausfahrt",
            .roundaboutTurn: "Biegen Sie im Kreisverkehr {modifier} auf {street} ab",
            .roundaboutTurnUnnamed: "Biegen Sie im Kreisverkehr {modifier} ab",
            .exitRoundabout: "Verlassen Sie den Kreisverkehr auf {street}", .exitRoundaboutUnnamed: "Verlassen Sie den Kreisverkehr",
            .arrive: "Sie haben Ihr Ziel erreicht", .arriveLeft: "Sie haben Ihr Ziel erreicht. Es befindet sich links",
            .arriveRight: "Sie haben Ihr Ziel erreicht. Es befindet sich rechts",
            .waypoint: "Sie haben Ihren Zwischenstopp erreicht", .waypointLeft: "Sie haben Ihren Zwischenstopp erreicht. Er befindet sich links",
            .waypointRight: "Sie haben Ihren Zwischenstopp erreicht. Er befindet sich rechts",
            .then: "{first}, dann {second}",
            .group: "Start: {from}. Fahren Sie über {roads} zu Ihrem Ziel",
            .groupWaypoint: "Start: {from}. Fahren Sie über {roads} zu Ihrem Zwischenstopp",
            .groupRoads: "{roads}", .startPoint: "Ihr Startpunkt", .theRoute: "die Route",
            .continueFor: "Folgen Sie dem Straßenverlauf für {distance}",
            .north: "Norden", .northeast: "Nordosten", .east: "Osten", .southeast: "Südosten",
            .south: "Süden", .southwest: "Südwesten", .west: "Westen", .northwest: "Nordwesten",
            .modSharpLeft: "scharf links", .modLeft: "links", .modSlightLeft: "leicht links", .modStraight: "geradeaus",
            .modSlightRight: "leicht rechts", .modRight: "rechts", .modSharpRight: "scharf rechts", .modUTurn: "in Gegenrichtung",
        ],
        ordinals: ["erste", "zweite", "dritte", "vierte", "fünfte", "sechste", "siebte", "achte", "neunte", "zehnte"],
        ordinalFormat: "{n}.", decimalSeparator: ",", article: germanArticle)

    /// "auf die Hauptstraße" (onto) and "auf der Hauptstraße" (on): the article follows the kind
    /// of street a name ends in; a name that opens with its own preposition or article takes none.
    @Sendable static func germanArticle(_ name: String, _ onto: Bool) -> String {
        let first = firstWord(name)
        if ["am", "an", "auf", "im", "in", "zum", "zur", "unter", "über", "vor", "hinter", "bei", "beim", "der", "die", "das",
            "den", "dem", "alt", "alte", "alter", "altes"].contains(first) { return "" }
        if isRoadNumber(name) { return onto ? "die " : "der " }
        let word = lastWord(name).split(separator: "-").last.map { String($0) } ?? ""
        let feminine = ["straße", "strasse", "gasse", "allee", "chaussee", "brücke", "promenade", "zeile", "steige", "bahn", "passage",
                        "twiete", "aue", "insel", "tangente", "spange", "umgehung", "anlage"]
        let masculine = ["weg", "platz", "ring", "damm", "pfad", "steg", "markt", "berg", "graben", "wall", "kai", "tunnel", "stieg",
                         "gürtel", "hof", "anger", "kamp", "deich", "park", "boulevard", "zubringer", "kreisel"]
        let neuter = ["ufer", "feld", "tor", "dreieck", "kreuz"]
        if feminine.contains(where: word.hasSuffix) { return onto ? "die " : "der " }
        if masculine.contains(where: word.hasSuffix) { return onto ? "den " : "dem " }
        if neuter.contains(where: word.hasSuffix) { return onto ? "das " : "dem " }
        return ""
    }
}
