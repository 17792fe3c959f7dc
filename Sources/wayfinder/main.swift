import Foundation

let version = "0.1.0"
let usage = """
USAGE: wayfinder <command> [options]

Self-hosted routing, places and maps on OpenStreetMap data.

COMMANDS:
  import      read an .osm.pbf extract into a dataset folder
  serve       serve the HTTP API, map tiles and the web app
  route       compute a route between coordinates
  search      find addresses, streets, places and POIs (typeahead, near a point)
  reverse     the address at a point
  along-route places along a route with exact detour times
  reach       isochrones: how far one gets within time or distance budgets
  matrix      travel times and lengths between many points
  categories  list the place categories
  traffic     apply live speeds, closures or historical profiles
  leave       time to leave: count down to the latest departure, kept true as traffic changes
  info        describe a dataset (JSON)
  bench       measure import and query speed (prints JSON)
  generate    write a synthetic road network as .osm.pbf (for benchmarks at any size)

Run `wayfinder <command> --help` for a command's options.
Map data © OpenStreetMap contributors (ODbL).
"""


let arguments = Array(CommandLine.arguments.dropFirst())
let commands: [String: ([String]) throws -> Void] = [
    "import": ImportCommand.run,
    "route": RouteCommand.run,
    "bench": BenchCommand.run,
    "info": InfoCommand.run,
    "traffic": TrafficCommand.run,
    "serve": ServeCommand.run,
    "search": SearchCommand.run,
    "reverse": ReverseCommand.run,
    "along-route": AlongRouteCommand.run,
    "categories": CategoriesCommand.run,
    "generate": GenerateCommand.run,
    "leave": LeaveCommand.run,
    "reach": ReachCommand.run,
    "matrix": MatrixCommand.run,
]
let commandUsages: [String: String] = [
    "import": ImportCommand.usage,
    "route": RouteCommand.usage,
    "bench": BenchCommand.usage,
    "info": InfoCommand.usage,
    "traffic": TrafficCommand.usage,
    "serve": ServeCommand.usage,
    "search": SearchCommand.usage,
    "reverse": ReverseCommand.usage,
    "along-route": AlongRouteCommand.usage,
    "categories": CategoriesCommand.usage,
    "generate": GenerateCommand.usage,
    "leave": LeaveCommand.usage,
    "reach": ReachCommand.usage,
    "matrix": MatrixCommand.usage,
]

guard let name = arguments.first else {
    FileHandle.standardError.write((usage + "\n").data(using: .utf8)!)
    exit(ExitCode.usage)
}
if name == "--version" || name == "version" {
    print("wayfinder \(version)")
    exit(0)
}
if name == "--help" || name == "-h" || name == "help" {
    print(usage)
    exit(0)
}
guard let command = commands[name] else {
    printError("unknown command \"\(name)\"\n\n\(usage)")
    exit(ExitCode.usage)
}
do {
    try command(Array(arguments.dropFirst()))
} catch let error as UsageError {
    printError("\(error.description)\n\n\(commandUsages[name] ?? usage)")
    exit(ExitCode.usage)
} catch let error as CommandFailure {
    printError(error.description)
    exit(error.exitCode)
} catch {
    printError("\(error)")
    exit(ExitCode.software)
}
