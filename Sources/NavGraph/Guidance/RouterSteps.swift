/// Guidance on request: steps are built at output time, so plain routing pays nothing for them.
extension Router {
    /// The steps of one leg.
    public func steps(for leg: RouteLeg) -> [GuidanceStep] {
        stepBuilder.steps(for: leg)
    }

    /// Fills `steps` of every leg of every route in the response.
    public func addSteps(to response: inout RouteResponse) {
        let builder = stepBuilder
        for r in response.routes.indices {
            for l in response.routes[r].legs.indices {
                response.routes[r].legs[l].steps = builder.steps(for: response.routes[r].legs[l])
            }
        }
    }
}
