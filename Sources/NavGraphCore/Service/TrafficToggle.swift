/// `traffic=false` on `/route`, `/geojson` and `/style`: route on free flow although the server has traffic
/// (the map page's traffic toggle); `traffic=true` or no option uses the traffic in force.
extension OSRMService {
    func trafficSnapshot(_ query: QueryOptions) throws -> LiveTraffic.Snapshot? {
        try query.bool("traffic", default: true) ? traffic.snapshot : nil
    }

    /// The snapshot for a router's profile: traffic covers the motor road set only.
    func trafficSnapshot(_ query: QueryOptions, router: Router) throws -> LiveTraffic.Snapshot? {
        router.graph.profile.roadSet == .motor ? try trafficSnapshot(query) : nil
    }
}
