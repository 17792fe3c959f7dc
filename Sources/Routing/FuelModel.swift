public import RoadNetwork

/// The fuel model behind `eco` routes and every car route's `fuelConsumptionInLiters`.
///
/// A petrol car's steady-speed consumption follows a U-shaped curve,
/// `c(v) = A / v + B + C · v²` litres per 100 km for v in km/h (rolling and idle losses dominate
/// slowly, air drag fast), with A = 149.1, B = 1.94, C = 0.000265: 9.5 L at 20 km/h, 5.6 L at
/// 50 km/h, 5.5 L at 80 km/h, 7.0 L at 120 km/h — typical of a mid-size car. Every stop (traffic
/// signals count half, stop signs fully) and every sharp turn adds the fuel to speed up again:
/// the kinetic energy ½mv² of 1500 kg at v, at 25 % engine efficiency and 34 MJ/L, which is
/// 0.017 L from 50 km/h, scaling with v².
public enum FuelModel {
    static let a = 149.1, b = 1.94, c = 0.000265

    /// Litres per 100 km at a steady `speedKmh`.
    public static func litersPer100Km(speedKmh: Double) -> Double {
        let v = max(5, min(160, speedKmh))
        return a / v + b + c * v * v
    }

    /// Litres to speed up from a stop to `speedKmh`.
    public static func litersPerStop(speedKmh: Double) -> Double {
        0.017 * (speedKmh / 50) * (speedKmh / 50)
    }

    /// Litres to drive `meters` in `seconds`.
    public static func liters(meters: Double, seconds: Double) -> Double {
        guard meters > 0, seconds > 0 else { return 0 }
        let kmh = meters / seconds * 3.6
        return litersPer100Km(speedKmh: kmh) * meters / 100_000
    }

    /// The stop share of a turn: signals half a stop, a stop sign a full one, a sharp turn
    /// (a turn cost of 2.5 s or more, i.e. beyond about 70°) half a stop.
    public static func stopShare(turnMs: UInt32, node flags: NodeFlags) -> Double {
        var share = 0.0
        if flags.contains(.stopSign) { share = 1 } else if flags.contains(.trafficSignals) { share = 0.5 }
        if turnMs >= 2500 { share = max(share, 0.5) }
        return share
    }
}
