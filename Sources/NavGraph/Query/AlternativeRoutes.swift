/// Alternative routes (not implemented yet: returns none).
struct AlternativeRoutes {
    let router: Router
    let metric: RoutingMetric
    let options: RouteOptions

    func alternatives(primary: Route, snaps: [Snap], count: Int) -> [Route] { [] }
}
