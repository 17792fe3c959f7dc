extension Phrasebook {
    /// Portuguese (`pt`, `pt-PT`, `pt-BR`, …), in the words of Portugal's roads ("rotunda", "saída").
    public static let portuguese = Phrasebook(
        language: "pt",
        phrases: [
            .depart: "Parta de {street}", .departUnnamed: "Parta do ponto de partida",
            .head: "Siga para {direction} por {onStreet}", .headUnnamed: "Siga para {direction}",
            .turnSharpLeft: "Vire acentuadamente à esquerda para {street}", .turnSharpLeftUnnamed: "Vire acentuadamente à esquerda",
            .turnLeft: "Vire à esquerda para {street}", .turnLeftUnnamed: "Vire à esquerda",
            .turnSlightLeft: "Vire ligeiramente à esquerda para {street}", .turnSlightLeftUnnamed: "Vire ligeiramente à esquerda",
            .turnSlightRight: "Vire ligeiramente à direita para {street}", .turnSlightRightUnnamed: "Vire ligeiramente à direita",
            .turnRight: "Vire à direita para {street}", .turnRightUnnamed: "Vire à direita",
            .turnSharpRight: "Vire acentuadamente à direita para {street}", .turnSharpRightUnnamed: "Vire acentuadamente à direita",
            .straight: "Continue para {street}", .straightUnnamed: "Continue em frente",
            .continue: "Vire {modifier} para continuar em {onStreet}", .continueUnnamed: "Vire {modifier}",
            .endOfRoad: "No fim da estrada, vire {modifier} para {street}", .endOfRoadUnnamed: "No fim da estrada, vire {modifier}",
            .keepLeft: "Mantenha-se à esquerda para {street}", .keepLeftUnnamed: "Mantenha-se à esquerda",
            .keepRight: "Mantenha-se à direita para {street}", .keepRightUnnamed: "Mantenha-se à direita",
            .merge: "Entre {modifier} em {street}", .mergeUnnamed: "Entre {modifier} na via",
            .enterMotorway: "Entre em {street}", .enterMotorwayUnnamed: "Entre na autoestrada",
            .rampLeft: "Siga pelo acesso à esquerda para {street}", .rampLeftUnnamed: "Siga pelo acesso à esquerda",
            .rampRight: "Siga pelo acesso à direita para {street}", .rampRightUnnamed: "Siga pelo acesso à direita",
            .exitLeft: "Tome a saída à esquerda para {street}", .exitLeftUnnamed: "Tome a saída à esquerda",
            .exitRight: "Tome a saída para {street}", .exitRightUnnamed: "Tome a saída",
            .exitNumberLeft: "Tome a saída {exit} à esquerda para {street}", .exitNumberLeftUnnamed: "Tome a saída {exit} à esquerda",
            .exitNumberRight: "Tome a saída {exit} para {street}", .exitNumberRightUnnamed: "Tome a saída {exit}",
            .towards: "{instruction} em direção a {destination}",
            .uTurn: "Faça inversão de marcha em {onStreet}", .uTurnUnnamed: "Faça inversão de marcha",
            .ferry: "Apanhe o ferry {street}", .ferryUnnamed: "Apanhe o ferry",
            .walkBike: "{instruction}. Empurre a bicicleta", .rideBike: "{instruction}. Volte a pedalar",
            .roundabout: "Na rotunda, saia na {ordinal} saída para {street}",
            .roundaboutUnnamed: "Na rotunda, saia na {ordinal} saída",
            .rotary: "Na rotunda {rotary}, saia na {ordinal} saída para {street}",
            .rotaryUnnamed: "Na rotunda {rotary}, saia na {ordinal} saída",
            .roundaboutTurn: "Na rotunda, vire {modifier} para {street}", .roundaboutTurnUnnamed: "Na rotunda, vire {modifier}",
            .exitRoundabout: "Saia da rotunda para {street}", .exitRoundaboutUnnamed: "Saia da rotunda",
            .arrive: "Chegou ao destino", .arriveLeft: "Chegou ao destino. O destino fica à esquerda",
            .arriveRight: "Chegou ao destino. O destino fica à direita",
            .waypoint: "Chegou à paragem", .waypointLeft: "Chegou à paragem. Fica à esquerda",
            .waypointRight: "Chegou à paragem. Fica à direita",
            .then: "{first} e depois {second}",
            .group: "Parta de {from}. Siga por {roads} até ao destino",
            .groupWaypoint: "Parta de {from}. Siga por {roads} até à paragem",
            .groupRoads: "{roads}", .startPoint: "o ponto de partida", .theRoute: "o percurso",
            .continueFor: "Continue durante {distance}",
            .north: "norte", .northeast: "nordeste", .east: "este", .southeast: "sudeste",
            .south: "sul", .southwest: "sudoeste", .west: "oeste", .northwest: "noroeste",
            .modSharpLeft: "acentuadamente à esquerda", .modLeft: "à esquerda", .modSlightLeft: "ligeiramente à esquerda",
            .modStraight: "em frente", .modSlightRight: "ligeiramente à direita", .modRight: "à direita",
            .modSharpRight: "acentuadamente à direita", .modUTurn: "em sentido contrário",
        ],
        ordinals: ["primeira", "segunda", "terceira", "quarta", "quinta", "sexta", "sétima", "oitava", "nona", "décima"],
        ordinalFormat: "{n}.ª", decimalSeparator: ",", article: portugueseArticle,
        contractions: [(" em a ", " na "), (" em o ", " no "), (" de a ", " da "), (" de o ", " do "), (" por a ", " pela "),
                       (" por o ", " pelo "), (" a a ", " à "), (" a o ", " ao ")])

    /// "para a Rua …", "pelo Largo …": the article of the kind of street, or of a road number.
    @Sendable static func portugueseArticle(_ name: String, _ onto: Bool) -> String {
        if isRoadNumber(name) { return "a " }
        let first = firstWord(name)
        if ["rua", "avenida", "estrada", "praça", "travessa", "alameda", "calçada", "rotunda", "ponte", "via", "autoestrada",
            "circunvalação", "variante", "rampa", "escadas", "viela", "azinhaga", "quinta", "urbanização", "marginal"].contains(first) {
            return "a "
        }
        if ["largo", "caminho", "beco", "túnel", "viaduto", "nó", "campo", "passeio", "bairro", "cais", "terreiro", "jardim",
            "acesso", "itinerário"].contains(first) { return "o " }
        return ""
    }
}
