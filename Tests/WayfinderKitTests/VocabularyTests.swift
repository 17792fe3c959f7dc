import Testing
import RoadNetwork
import Routing
import WayfinderKit

/// The SDK's parameter vocabularies are typed enums for callers, and the server's are the
/// engine's own: both spell the same query values, so a value added on one side alone fails here.
@Suite("SDK and server parameter values") struct VocabularyTests {
    @Test func travelModes() {
        #expect(Set(WayfinderKit.TravelMode.allCases.map(\.rawValue)) == Set(RoadNetwork.TravelMode.allCases.map(\.rawValue)))
    }

    @Test func routeTypesAvoidancesAndWindingness() {
        // `quiet` is never spelled in a query: a bicycle asks for it as `eco`.
        #expect(Set(WayfinderKit.RouteType.allCases.map(\.rawValue)) == Set(Routing.RouteType.allCases.filter { $0 != .quiet }.map(\.rawValue)))
        #expect(Set(WayfinderKit.Avoidance.allCases.map(\.rawValue)) == Set(Routing.Avoidance.allCases.map(\.rawValue)))
        #expect(Set(WayfinderKit.Windingness.allCases.map(\.rawValue)) == Set(Routing.Windingness.allCases.map(\.rawValue)))
    }
}
