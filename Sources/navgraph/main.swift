import Foundation
import NavGraph

let usage = """
usage:
  navgraph import REGION.osm.pbf [-o REGION.navgraph] [--profile car] [--quiet]
  navgraph info REGION.navgraph [--json]
  navgraph route REGION.navgraph LAT,LON LAT,LON [LAT,LON ...] [options]
  navgraph route REGION.navgraph --pairs pairs.csv [options]   (one lon,lat,lon,lat line per query)

route options:
  --output FILE            write the route (GeoJSON) to FILE
  --radius METRES          snapping radius (default 1000)
  --avoid toll,ferry,highway   avoid these classes (any combination)
  --avoid-trunk            treat trunk roads as highway too
  --avoid-mode strict|prefer   strict removes avoided roads (default); prefer penalises them
  --alternatives [N]       up to N alternative routes (default 2)
  --algorithm ch|dijkstra  the hierarchy (default) or the Dijkstra reference
"""

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("navgraph: \(message)\n".utf8))
    exit(2)
}

let raw = Array(CommandLine.arguments.dropFirst())
guard let command = raw.first else {
    print(usage)
    exit(2)
}
do {
    let arguments = try Arguments(Array(raw.dropFirst()))
    switch command {
    case "import": try ImportCommand.run(arguments)
    case "info": try InfoCommand.run(arguments)
    case "route": try RouteCommand.run(arguments)
    case "help", "--help", "-h": print(usage)
    default: fail("unknown command '\(command)'\n\(usage)")
    }
} catch let error as NavGraphError {
    fail(error.message)
} catch {
    fail("\(error)")
}
