// swift-tools-version:6.0
import PackageDescription

// Every target opts into the same upcoming features so that `public import` marks exactly
// which dependencies show up in a module's API (as Hummingbird does).
let settings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]
let libm: [LinkerSetting] = [.linkedLibrary("m", .when(platforms: [.linux]))]

let package = Package(
    name: "Wayfinder",
    products: [
        .executable(name: "wayfinder", targets: ["wayfinder"]),
        .library(name: "WayfinderKit", targets: ["WayfinderKit"]),

    ],
    targets: [
        // C libraries from Debian, installed by scripts/setup.sh.
        .systemLibrary(name: "CDeflate", pkgConfig: "libdeflate", providers: [.apt(["libdeflate-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(name: "CCairo", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"])]),

        .target(name: "GeoCore", swiftSettings: settings, linkerSettings: libm),
        .target(name: "Parallelism", swiftSettings: settings),
        .target(name: "Deflate", dependencies: ["CDeflate"], swiftSettings: settings),
        .target(name: "OSMPBF", dependencies: ["Deflate", "Parallelism"], swiftSettings: settings),
        .target(name: "BinaryIO", dependencies: ["Deflate"], swiftSettings: settings),
        .target(name: "RoadNetwork", dependencies: ["GeoCore", "BinaryIO"], swiftSettings: settings),
        .target(name: "Traffic", dependencies: ["RoadNetwork", "BinaryIO", "GeoCore"], swiftSettings: settings),
        .target(name: "Routing", dependencies: ["GeoCore", "RoadNetwork", "BinaryIO", "Parallelism", "Deflate"], swiftSettings: settings),
        // Hidden Markov map matching of GPS traces, and road speeds from matched probe traces.
        .target(name: "MapMatching", dependencies: ["Routing", "RoadNetwork", "GeoCore"], swiftSettings: settings),
        // One planning API beneath every surface: plan, re-time, traffic; no wire format.
        .target(name: "RoutePlanning", dependencies: ["MapMatching", "Routing", "Traffic", "RoadNetwork", "GeoCore"], swiftSettings: settings),
        .target(name: "MapsAPI", swiftSettings: settings),
        .target(name: "HTTPServer", dependencies: ["CMicroHTTPD", "Deflate"], swiftSettings: settings),
        .target(name: "SQLite", dependencies: ["CSQLite"], swiftSettings: settings),
        .target(name: "Places", dependencies: ["SQLite", "OSMPBF", "GeoCore", "BinaryIO"], swiftSettings: settings, linkerSettings: libm),
        .target(name: "BaseMap", dependencies: ["OSMPBF", "GeoCore", "BinaryIO"], swiftSettings: settings),
        .target(name: "Tiles", dependencies: ["BaseMap", "CCairo", "GeoCore", "BinaryIO"], swiftSettings: settings, linkerSettings: libm),
        .target(name: "Dataset", dependencies: ["RoadNetwork", "Routing", "BinaryIO"], swiftSettings: settings),
        .target(name: "DatasetImport", dependencies: ["Dataset", "RoadExtract", "RoadNetwork", "Routing", "OSMPBF", "BinaryIO", "GeoCore", "BaseMap", "Places", "Parallelism"], swiftSettings: settings),
        .target(name: "Directions", dependencies: ["RoutePlanning", "Routing", "RoadNetwork", "GeoCore"], swiftSettings: settings),
        // The mapping from domain values (places, guidance, routes) to MapsAPI's wire types. MapsAPI itself
        // stays Foundation-only, so that the SDK built on it needs none of the engine.
        .target(name: "MapsAPIMapping", dependencies: ["MapsAPI", "Routing", "Places", "Directions", "RoutePlanning", "RoadNetwork", "GeoCore"], swiftSettings: settings),
        .target(name: "MapsService", dependencies: ["MapMatching", "Dataset", "Tiles", "BaseMap", "MapsAPI", "MapsAPIMapping", "RoutePlanning", "Routing", "RoadNetwork", "GeoCore", "Traffic", "Directions", "Places"], swiftSettings: settings),
        .target(name: "MapsServer", dependencies: ["HTTPServer", "MapsService", "MapsAPI", "MapsAPIMapping", "GeoCore", "TimeToLeave"],
                resources: [.copy("Resources/web"), .copy("Resources/openapi.json")], swiftSettings: settings),
        .target(name: "TimeToLeave", dependencies: ["RoutePlanning", "MapsAPI", "MapsAPIMapping", "SQLite", "GeoCore", "RoadNetwork", "Routing", "Deflate"], swiftSettings: settings),
        .target(name: "SyntheticNetwork", dependencies: ["OSMPBF", "GeoCore"], swiftSettings: settings, linkerSettings: libm),
        .target(name: "RoadExtract", dependencies: ["GeoCore", "OSMPBF", "RoadNetwork"], swiftSettings: settings, linkerSettings: libm),

        .executableTarget(name: "wayfinder", dependencies: ["Parallelism", "MapMatching", "RoutePlanning", "SyntheticNetwork", "BaseMap", "Tiles", "DatasetImport", "Dataset", "MapsService", "MapsServer", "HTTPServer", "Places", "MapsAPI", "MapsAPIMapping", "RoadExtract", "RoadNetwork", "Routing", "Traffic", "BinaryIO", "OSMPBF", "GeoCore", "TimeToLeave"], swiftSettings: settings),

        .target(name: "WayfinderKit", dependencies: ["MapsAPI"], swiftSettings: settings),
        .executableTarget(name: "example-directions", dependencies: ["WayfinderKit"], path: "Examples/example-directions", swiftSettings: settings),
        .executableTarget(name: "example-along-route", dependencies: ["WayfinderKit"], path: "Examples/example-along-route", swiftSettings: settings),
        .executableTarget(name: "example-time-to-leave", dependencies: ["WayfinderKit"], path: "Examples/example-time-to-leave", swiftSettings: settings),

        .target(name: "MapsTestSupport", dependencies: ["GeoCore", "OSMPBF", "RoadNetwork", "RoadExtract", "Routing", "RoutePlanning", "Dataset", "DatasetImport", "MapsService", "MapsAPI"], swiftSettings: settings),

        .testTarget(name: "WayfinderKitTests", dependencies: ["WayfinderKit", "MapsAPI", "MapsServer", "MapsService", "Dataset", "DatasetImport", "HTTPServer", "MapsTestSupport", "TimeToLeave", "RoadNetwork", "Routing", "example-directions", "example-along-route", "example-time-to-leave"], swiftSettings: settings),
        .testTarget(name: "GeoCoreTests", dependencies: ["GeoCore"], swiftSettings: settings),
        .testTarget(name: "BinaryIOTests", dependencies: ["BinaryIO", "Deflate", "GeoCore", "MapsTestSupport"], swiftSettings: settings),
        .testTarget(name: "RoadNetworkTests", dependencies: ["RoadNetwork", "GeoCore", "MapsTestSupport"], swiftSettings: settings),
        .testTarget(name: "TrafficTests", dependencies: ["Traffic", "RoadNetwork", "GeoCore", "MapsTestSupport"], swiftSettings: settings),
        .testTarget(name: "RoutePlanningTests", dependencies: ["RoutePlanning", "RoadNetwork", "GeoCore", "MapsTestSupport"], swiftSettings: settings),
        .testTarget(name: "DirectionsTests", dependencies: ["Directions", "RoutePlanning", "RoadNetwork", "GeoCore", "MapsTestSupport"], swiftSettings: settings),
        .testTarget(name: "DatasetTests", dependencies: ["Dataset", "BinaryIO", "DatasetImport", "RoadNetwork", "RoadExtract", "OSMPBF", "MapsTestSupport"], swiftSettings: settings),
        .testTarget(name: "ScenarioTests", dependencies: ["MapsTestSupport", "RoutePlanning", "RoadExtract", "RoadNetwork", "Routing", "OSMPBF", "GeoCore", "MapsService", "MapsAPI", "MapsAPIMapping", "Traffic"], swiftSettings: settings),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "MapsTestSupport"], swiftSettings: settings),
        .testTarget(name: "PlacesTests", dependencies: ["Places", "SQLite", "MapsTestSupport", "OSMPBF", "GeoCore", "MapsAPI", "MapsAPIMapping"], swiftSettings: settings),
        .testTarget(name: "MapsAPIMappingTests", dependencies: ["MapsAPIMapping", "MapsAPI", "Places", "GeoCore"], swiftSettings: settings),
        .testTarget(name: "TilesTests", dependencies: ["Tiles", "BaseMap", "MapsTestSupport", "OSMPBF", "GeoCore"], swiftSettings: settings),
        .testTarget(name: "RoadExtractTests", dependencies: ["RoadExtract", "RoadNetwork", "OSMPBF", "MapsTestSupport"], swiftSettings: settings),
        .testTarget(name: "RoutingTests", dependencies: ["Routing", "RoadExtract", "RoadNetwork", "OSMPBF", "MapsTestSupport", "GeoCore"], swiftSettings: settings),
        .testTarget(name: "MapsServiceTests", dependencies: ["MapsService", "MapsAPI", "MapsTestSupport", "Dataset", "DatasetImport", "Places", "GeoCore"], swiftSettings: settings),
        .testTarget(name: "MapMatchingTests", dependencies: ["MapMatching", "OSMPBF", "MapsTestSupport", "MapsService", "MapsAPI", "RoadNetwork", "RoutePlanning", "GeoCore"], swiftSettings: settings),
        .testTarget(name: "MapsServerTests", dependencies: ["MapMatching", "RoutePlanning", "RoadNetwork", "GeoCore", "MapsServer", "MapsAPI", "MapsService", "HTTPServer", "MapsTestSupport", "Dataset", "DatasetImport", "OSMPBF"], swiftSettings: settings),
        .testTarget(name: "TimeToLeaveTests", dependencies: ["TimeToLeave", "MapsTestSupport", "MapsService", "MapsAPI", "MapsServer", "HTTPServer", "Traffic", "GeoCore", "RoadNetwork", "Routing", "SQLite", "Dataset", "DatasetImport", "Places"], swiftSettings: settings),
        .testTarget(name: "OSMPBFTests", dependencies: ["OSMPBF", "GeoCore", "MapsTestSupport"], swiftSettings: settings),

        // Fuzzing (issue 9): one harness library, called by the libFuzzer executables (built by
        // scripts/fuzz.sh with -DWAYFINDER_FUZZING; replay runners otherwise) and by the regression suite.
        .target(name: "FuzzHarness", dependencies: ["OSMPBF", "Traffic", "HTTPServer", "MapsServer", "MapsService", "MapsAPI", "GeoCore", "Dataset", "DatasetImport"],
                path: "Fuzz/Harness", swiftSettings: settings),
        .systemLibrary(name: "CLibFuzzer", path: "Fuzz/CLibFuzzer"),
        .executableTarget(name: "fuzz-pbf", dependencies: ["FuzzHarness", "CLibFuzzer"], path: "Fuzz/Targets/fuzz-pbf", swiftSettings: settings),
        .executableTarget(name: "fuzz-csv", dependencies: ["FuzzHarness", "CLibFuzzer"], path: "Fuzz/Targets/fuzz-csv", swiftSettings: settings),
        .executableTarget(name: "fuzz-request", dependencies: ["FuzzHarness", "CLibFuzzer"], path: "Fuzz/Targets/fuzz-request", swiftSettings: settings),
        .executableTarget(name: "fuzz-parsers", dependencies: ["FuzzHarness", "CLibFuzzer"], path: "Fuzz/Targets/fuzz-parsers", swiftSettings: settings),
        .testTarget(name: "FuzzRegressionTests", dependencies: ["FuzzHarness", "OSMPBF"], swiftSettings: settings),
    ]
)
