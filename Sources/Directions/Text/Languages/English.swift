extension Phrasebook {
    /// English (`en`, `en-GB`, `en-US`, …): the reference table, with every key.
    public static let english = Phrasebook(
        language: "en",
        phrases: [
            .depart: "Leave from {street}", .departUnnamed: "Leave from your start point",
            .head: "Head {direction} on {onStreet}", .headUnnamed: "Head {direction}",
            .turnSharpLeft: "Make a sharp left onto {street}", .turnSharpLeftUnnamed: "Make a sharp left",
            .turnLeft: "Turn left onto {street}", .turnLeftUnnamed: "Turn left",
            .turnSlightLeft: "Bear left onto {street}", .turnSlightLeftUnnamed: "Bear left",
            .turnSlightRight: "Bear right onto {street}", .turnSlightRightUnnamed: "Bear right",
            .turnRight: "Turn right onto {street}", .turnRightUnnamed: "Turn right",
            .turnSharpRight: "Make a sharp right onto {street}", .turnSharpRightUnnamed: "Make a sharp right",
            .straight: "Continue onto {street}", .straightUnnamed: "Continue straight on",
            .continue: "Turn {modifier} to stay on {onStreet}", .continueUnnamed: "Turn {modifier}",
            .endOfRoad: "At the end of the road turn {modifier} onto {street}", .endOfRoadUnnamed: "At the end of the road turn {modifier}",
            .keepLeft: "Keep left onto {street}", .keepLeftUnnamed: "Keep left",
            .keepRight: "Keep right onto {street}", .keepRightUnnamed: "Keep right",
            .merge: "Merge {modifier} onto {street}", .mergeUnnamed: "Merge {modifier}",
            .enterMotorway: "Join the motorway {street}", .enterMotorwayUnnamed: "Join the motorway",
            .rampLeft: "Take the ramp on the left onto {street}", .rampLeftUnnamed: "Take the ramp on the left",
            .rampRight: "Take the ramp on the right onto {street}", .rampRightUnnamed: "Take the ramp on the right",
            .exitLeft: "Take the exit on the left onto {street}", .exitLeftUnnamed: "Take the exit on the left",
            .exitRight: "Take the exit onto {street}", .exitRightUnnamed: "Take the exit",
            .exitNumberLeft: "Take exit {exit} on the left onto {street}", .exitNumberLeftUnnamed: "Take exit {exit} on the left",
            .exitNumberRight: "Take exit {exit} onto {street}", .exitNumberRightUnnamed: "Take exit {exit}",
            .towards: "{instruction} towards {destination}",
            .uTurn: "Make a U-turn onto {street}", .uTurnUnnamed: "Make a U-turn",
            .ferry: "Take the ferry {street}", .ferryUnnamed: "Take the ferry",
            .walkBike: "{instruction}. Walk your bike", .rideBike: "{instruction}. Ride your bike again",
            .roundabout: "At the roundabout take the {ordinal} exit onto {street}",
            .roundaboutUnnamed: "At the roundabout take the {ordinal} exit",
            .rotary: "At {rotary} take the {ordinal} exit onto {street}", .rotaryUnnamed: "At {rotary} take the {ordinal} exit",
            .roundaboutTurn: "At the roundabout turn {modifier} onto {street}", .roundaboutTurnUnnamed: "At the roundabout turn {modifier}",
            .exitRoundabout: "Exit the roundabout onto {street}", .exitRoundaboutUnnamed: "Exit the roundabout",
            .arrive: "You have arrived", .arriveLeft: "You have arrived. Your destination is on the left",
            .arriveRight: "You have arrived. Your destination is on the right",
            .waypoint: "You have reached your waypoint", .waypointLeft: "You have reached your waypoint. It is on the left",
            .waypointRight: "You have reached your waypoint. It is on the right",
            .then: "{first} then {second}",
            .group: "Leave from {from}. Take {roads} to your destination",
            .groupWaypoint: "Leave from {from}. Take {roads} to your waypoint",
            .groupRoads: "the {roads}", .startPoint: "your start point", .theRoute: "the route",
            .continueFor: "Continue for {distance}",
            .north: "north", .northeast: "northeast", .east: "east", .southeast: "southeast",
            .south: "south", .southwest: "southwest", .west: "west", .northwest: "northwest",
            .modSharpLeft: "sharp left", .modLeft: "left", .modSlightLeft: "slightly left", .modStraight: "straight on",
            .modSlightRight: "slightly right", .modRight: "right", .modSharpRight: "sharp right", .modUTurn: "around",
        ],
        ordinals: (1...100).map(englishOrdinal), ordinalFormat: "{n}th", decimalSeparator: ".")

    /// 1st, 2nd, 3rd, 4th, …, 11th, 12th, 13th, 21st.
    static func englishOrdinal(_ n: Int) -> String {
        let suffix: String
        switch (n % 10, n % 100) {
        case (1, let h) where h != 11: suffix = "st"
        case (2, let h) where h != 12: suffix = "nd"
        case (3, let h) where h != 13: suffix = "rd"
        default: suffix = "th"
        }
        return "\(n)\(suffix)"
    }
}
