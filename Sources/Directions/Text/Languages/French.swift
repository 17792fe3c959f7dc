extension Phrasebook {
    /// French (`fr`, `fr-FR`, `fr-BE`, `fr-CH`, `fr-CA`, …).
    public static let french = Phrasebook(
        language: "fr",
        phrases: [
            .depart: "Partez en empruntant {street}", .departUnnamed: "Partez de votre point de départ",
            .head: "Dirigez-vous vers {direction} sur {onStreet}", .headUnnamed: "Dirigez-vous vers {direction}",
            .turnSharpLeft: "Tournez franchement à gauche sur {street}", .turnSharpLeftUnnamed: "Tournez franchement à gauche",
            .turnLeft: "Tournez à gauche sur {street}", .turnLeftUnnamed: "Tournez à gauche",
            .turnSlightLeft: "Tournez légèrement à gauche sur {street}", .turnSlightLeftUnnamed: "Tournez légèrement à gauche",
            .turnSlightRight: "Tournez légèrement à droite sur {street}", .turnSlightRightUnnamed: "Tournez légèrement à droite",
            .turnRight: "Tournez à droite sur {street}", .turnRightUnnamed: "Tournez à droite",
            .turnSharpRight: "Tournez franchement à droite sur {street}", .turnSharpRightUnnamed: "Tournez franchement à droite",
            .straight: "Continuez sur {street}", .straightUnnamed: "Continuez tout droit",
            .continue: "Tournez {modifier} pour rester sur {onStreet}", .continueUnnamed: "Tournez {modifier}",
            .endOfRoad: "Au bout de la route, tournez {modifier} sur {street}", .endOfRoadUnnamed: "Au bout de la route, tournez {modifier}",
            .keepLeft: "Restez à gauche sur {street}", .keepLeftUnnamed: "Restez à gauche",
            .keepRight: "Restez à droite sur {street}", .keepRightUnnamed: "Restez à droite",
            .merge: "Insérez-vous {modifier} sur {street}", .mergeUnnamed: "Insérez-vous {modifier}",
            .enterMotorway: "Engagez-vous sur {street}", .enterMotorwayUnnamed: "Engagez-vous sur l'autoroute",
            .rampLeft: "Prenez la bretelle à gauche vers {street}", .rampLeftUnnamed: "Prenez la bretelle à gauche",
            .rampRight: "Prenez la bretelle à droite vers {street}", .rampRightUnnamed: "Prenez la bretelle à droite",
            .exitLeft: "Prenez la sortie à gauche vers {street}", .exitLeftUnnamed: "Prenez la sortie à gauche",
            .exitRight: "Prenez la sortie vers {street}", .exitRightUnnamed: "Prenez la sortie",
            .exitNumberLeft: "Prenez la sortie {exit} à gauche vers {street}", .exitNumberLeftUnnamed: "Prenez la sortie {exit} à gauche",
            .exitNumberRight: "Prenez la sortie {exit} vers {street}", .exitNumberRightUnnamed: "Prenez la sortie {exit}",
            .towards: "{instruction} en direction de {destination}",
            .uTurn: "Faites demi-tour sur {onStreet}", .uTurnUnnamed: "Faites demi-tour",
            .ferry: "Prenez le ferry {street}", .ferryUnnamed: "Prenez le ferry",
            .walkBike: "{instruction}. Poussez votre vélo", .rideBike: "{instruction}. Remontez sur votre vélo",
            .roundabout: "Au rond-point, prenez la {ordinal} sortie sur {street}",
            .roundaboutUnnamed: "Au rond-point, prenez la {ordinal} sortie",
            .rotary: "Au rond-point {rotary}, prenez la {ordinal} sortie sur {street}",
            .rotaryUnnamed: "Au rond-point {rotary}, prenez la {ordinal} sortie",
            .roundaboutTurn: "Au rond-point, tournez {modifier} sur {street}", .roundaboutTurnUnnamed: "Au rond-point, tournez {modifier}",
            .exitRoundabout: "Sortez du rond-point sur {street}", .exitRoundaboutUnnamed: "Sortez du rond-point",
            .arrive: "Vous êtes arrivé", .arriveLeft: "Vous êtes arrivé. Votre destination se trouve sur la gauche",
            .arriveRight: "Vous êtes arrivé. Votre destination se trouve sur la droite",
            .waypoint: "Vous avez atteint votre étape", .waypointLeft: "Vous avez atteint votre étape. Elle se trouve sur la gauche",
            .waypointRight: "Vous avez atteint votre étape. Elle se trouve sur la droite",
            .then: "{first}, puis {second}",
            .group: "Départ : {from}. Empruntez {roads} jusqu'à votre destination",
            .groupWaypoint: "Départ : {from}. Empruntez {roads} jusqu'à votre étape",
            .groupRoads: "{roads}", .startPoint: "votre point de départ", .theRoute: "l'itinéraire",
            .continueFor: "Continuez sur {distance}",
            .north: "le nord", .northeast: "le nord-est", .east: "l'est", .southeast: "le sud-est",
            .south: "le sud", .southwest: "le sud-ouest", .west: "l'ouest", .northwest: "le nord-ouest",
            .modSharpLeft: "franchement à gauche", .modLeft: "à gauche", .modSlightLeft: "légèrement à gauche", .modStraight: "tout droit",
            .modSlightRight: "légèrement à droite", .modRight: "à droite", .modSharpRight: "franchement à droite", .modUTurn: "en sens inverse",
        ],
        ordinals: ["première", "deuxième", "troisième", "quatrième", "cinquième", "sixième", "septième", "huitième", "neuvième", "dixième"],
        ordinalFormat: "{n}e", decimalSeparator: ",", article: frenchArticle,
        // "de" elides before a name that starts with a vowel ("en direction d'Antibes").
        contractions: [(" de le ", " du "), (" à le ", " au "), (" de les ", " des "), (" à les ", " aux "),
                       (" de A", " d'A"), (" de E", " d'E"), (" de É", " d'É"), (" de I", " d'I"), (" de O", " d'O"), (" de U", " d'U")])

    /// "sur la rue …", "sur l'avenue …", "sur le boulevard …": the article the kind of street
    /// (the name's first word) takes; road numbers take theirs ("l'A 8", "la D 6007").
    @Sendable static func frenchArticle(_ name: String, _ onto: Bool) -> String {
        if isRoadNumber(name) { return name.lowercased().hasPrefix("a") ? "l'" : "la " }
        let first = firstWord(name)
        if ["rue", "route", "place", "promenade", "corniche", "voie", "montée", "descente", "chaussée", "traverse", "rocade",
            "ruelle", "placette", "digue", "côte", "levée", "bretelle", "porte", "cité", "résidence"].contains(first) { return "la " }
        if ["avenue", "allée", "impasse", "esplanade", "autoroute", "échangeur", "avenida"].contains(first) { return "l'" }
        if ["boulevard", "chemin", "quai", "cours", "pont", "passage", "square", "sentier", "rond", "tunnel", "carrefour",
            "viaduc", "parvis", "périphérique", "virage", "faubourg", "mail", "clos", "hameau", "lotissement"].contains(first) { return "le " }
        if ["lacets", "escaliers", "jardins", "terrasses"].contains(first) { return "les " }
        return ""
    }
}
