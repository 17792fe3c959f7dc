extension Phrasebook {
    /// Spanish (`es`, `es-ES`, `es-MX`, …), addressing the driver as "tú" as navigators do.
    public static let spanish = Phrasebook(
        language: "es",
        phrases: [
            .depart: "Sal por {street}", .departUnnamed: "Sal desde el punto de partida",
            .head: "Dirígete al {direction} por {onStreet}", .headUnnamed: "Dirígete al {direction}",
            .turnSharpLeft: "Gira bruscamente a la izquierda hacia {street}", .turnSharpLeftUnnamed: "Gira bruscamente a la izquierda",
            .turnLeft: "Gira a la izquierda hacia {street}", .turnLeftUnnamed: "Gira a la izquierda",
            .turnSlightLeft: "Gira ligeramente a la izquierda hacia {street}", .turnSlightLeftUnnamed: "Gira ligeramente a la izquierda",
            .turnSlightRight: "Gira ligeramente a la derecha hacia {street}", .turnSlightRightUnnamed: "Gira ligeramente a la derecha",
            .turnRight: "Gira a la derecha hacia {street}", .turnRightUnnamed: "Gira a la derecha",
            .turnSharpRight: "Gira bruscamente a la derecha hacia {street}", .turnSharpRightUnnamed: "Gira bruscamente a la derecha",
            .straight: "Continúa por {street}", .straightUnnamed: "Continúa recto",
            .continue: "Gira {modifier} para seguir por {onStreet}", .continueUnnamed: "Gira {modifier}",
            .endOfRoad: "Al final de la calle, gira {modifier} hacia {street}", .endOfRoadUnnamed: "Al final de la calle, gira {modifier}",
            .keepLeft: "Mantente a la izquierda hacia {street}", .keepLeftUnnamed: "Mantente a la izquierda",
            .keepRight: "Mantente a la derecha hacia {street}", .keepRightUnnamed: "Mantente a la derecha",
            .merge: "Incorpórate {modifier} a {street}", .mergeUnnamed: "Incorpórate {modifier}",
            .enterMotorway: "Incorpórate a {street}", .enterMotorwayUnnamed: "Incorpórate a la autopista",
            .rampLeft: "Toma la rampa de la izquierda hacia {street}", .rampLeftUnnamed: "Toma la rampa de la izquierda",
            .rampRight: "Toma la rampa de la derecha hacia {street}", .rampRightUnnamed: "Toma la rampa de la derecha",
            .exitLeft: "Toma la salida de la izquierda hacia {street}", .exitLeftUnnamed: "Toma la salida de la izquierda",
            .exitRight: "Toma la salida hacia {street}", .exitRightUnnamed: "Toma la salida",
            .exitNumberLeft: "Toma la salida {exit} de la izquierda hacia {street}", .exitNumberLeftUnnamed: "Toma la salida {exit} de la izquierda",
            .exitNumberRight: "Toma la salida {exit} hacia {street}", .exitNumberRightUnnamed: "Toma la salida {exit}",
            .towards: "{instruction} en dirección a {destination}",
            .uTurn: "Cambia de sentido en {onStreet}", .uTurnUnnamed: "Cambia de sentido",
            .ferry: "Toma el ferry {street}", .ferryUnnamed: "Toma el ferry",
            .walkBike: "{instruction}. Camina junto a tu bicicleta", .rideBike: "{instruction}. Vuelve a montar en bicicleta",
            .roundabout: "En la rotonda, toma la {ordinal} salida hacia {street}",
            .roundaboutUnnamed: "En la rotonda, toma la {ordinal} salida",
            .rotary: "En la rotonda {rotary}, toma la {ordinal} salida hacia {street}",
            .rotaryUnnamed: "En la rotonda {rotary}, toma la {ordinal} salida",
            .roundaboutTurn: "En la rotonda, gira {modifier} hacia {street}", .roundaboutTurnUnnamed: "En la rotonda, gira {modifier}",
            .exitRoundabout: "Sal de la rotonda hacia {street}", .exitRoundaboutUnnamed: "Sal de la rotonda",
            .arrive: "Has llegado a tu destino", .arriveLeft: "Has llegado a tu destino. Está a la izquierda",
            .arriveRight: "Has llegado a tu destino. Está a la derecha",
            .waypoint: "Has llegado a tu parada", .waypointLeft: "Has llegado a tu parada. Está a la izquierda",
            .waypointRight: "Has llegado a tu parada. Está a la derecha",
            .then: "{first} y, a continuación, {second}",
            .group: "Sal desde {from}. Toma {roads} hasta tu destino",
            .groupWaypoint: "Sal desde {from}. Toma {roads} hasta tu parada",
            .groupRoads: "{roads}", .startPoint: "el punto de partida", .theRoute: "la ruta",
            .continueFor: "Continúa durante {distance}",
            .north: "norte", .northeast: "noreste", .east: "este", .southeast: "sureste",
            .south: "sur", .southwest: "suroeste", .west: "oeste", .northwest: "noroeste",
            .modSharpLeft: "bruscamente a la izquierda", .modLeft: "a la izquierda", .modSlightLeft: "ligeramente a la izquierda",
            .modStraight: "recto", .modSlightRight: "ligeramente a la derecha", .modRight: "a la derecha",
            .modSharpRight: "bruscamente a la derecha", .modUTurn: "en sentido contrario",
        ],
        ordinals: ["primera", "segunda", "tercera", "cuarta", "quinta", "sexta", "séptima", "octava", "novena", "décima"],
        ordinalFormat: "{n}.ª", decimalSeparator: ",", article: spanishArticle,
        contractions: [(" a el ", " al "), (" de el ", " del ")])

    /// "hacia la calle Mayor", "por el paseo …": the article of the kind of street, or of a road number.
    @Sendable static func spanishArticle(_ name: String, _ onto: Bool) -> String {
        if isRoadNumber(name) { return "la " }
        let first = firstWord(name)
        if ["calle", "avenida", "carretera", "plaza", "ronda", "travesía", "glorieta", "autovía", "autopista", "cuesta", "calzada",
            "rambla", "vía", "costanilla", "bajada", "subida", "senda", "circunvalación", "variante"].contains(first) { return "la " }
        if ["paseo", "camino", "bulevar", "puente", "túnel", "callejón", "pasaje", "carril", "acceso", "enlace"].contains(first) { return "el " }
        return ""
    }
}
