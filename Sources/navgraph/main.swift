import Foundation
import NavGraph

let usage = """
usage:
  navgraph import REGION.osm.pbf [-o REGION.navgraph] [--profile car] [--quiet]
  navgraph info REGION.navgraph [--json]
  navgraph route REGION.navgraph LAT,LON LAT,LON [LAT,LON ...] [options]
  navgraph route REGION.navgraph --pairs pairs.csv [options]   (one lon,lat,lon,lat line per query)
  navgraph traffic REGION.navgraph traffic.csv [-o REGION.traffic] [--depart TIME]
  navgraph serve REGION.navgraph [--host 127.0.0.1] [--port 5000] [--threads N] [--traffic FILE]
                 [--max-table-size 1000] [--max-alternatives 3] [--timeout SECONDS] [--quiet]
                 [--assets DIR] [--glyphs URL] [--theme FILE]   (map page at /; assets from Tools/setup.sh)

route options:
  --output FILE            write the route (GeoJSON) to FILE
  --radius METRES          snapping radius (default 1000)
  --avoid toll,ferry,highway   avoid these classes (any combination)
  --avoid-trunk            treat trunk roads as highway too
  --avoid-mode strict|prefer   strict removes avoided roads (default); prefer penalises them
  --alternatives [N]       up to N alternative routes (default 2)
  --algorithm ch|dijkstra  the hierarchy (default) or the Dijkstra reference
  --traffic FILE           traffic from a .traffic file or a CSV (see navgraph traffic)
  --depart 2026-11-30T08:15  departure time; picks the traffic profile of that hour
  --format summary|geojson|directions   what --output (or stdout) gets; default geojson with --output
  --style FILE             also write a MapLibre style with the route as inline source
  --theme FILE             colours and widths (JSON, keys as in the SDK's route-line styling)
  --glyphs URL             glyph URL template of --style (default the MapLibre demo host; text needs it)
  --units metric|imperial  distances in labels and the summary
  --geometry polyline6|polyline|geojson   geometry in Directions JSON (default polyline6)
  --position LAT,LON       vehicle position: split traversed/remaining, mark completed waypoints
  --names A,B,C            waypoint names
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
    case "traffic": try TrafficCommand.run(arguments)
    case "serve": try ServeCommand.run(arguments)
    case "help", "--help", "-h": print(usage)
    default: fail("unknown command '\(command)'\n\(usage)")
    }
} catch let error as NavGraphError {
    fail(error.message)
} catch {
    fail("\(error)")
}
