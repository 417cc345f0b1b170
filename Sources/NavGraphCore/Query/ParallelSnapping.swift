extension Router {
    /// Snaps many points on all cores (one router per core sharing this router's engine): for each point, in order,
    /// its snap candidates or the error `snapCandidates` gives for it (`index` in messages is the point's position).
    public func snapAll(_ points: [Coordinate], options: RouteOptions, metric: RoutingMetric) -> [Result<SnapCandidates, NavGraphError>] {
        var results = [Result<SnapCandidates, NavGraphError>](repeating: .failure(NavGraphError("not snapped")), count: points.count)
        results.withUnsafeMutableBufferPointer { buffer in
            let out = SharedBuffer(buffer), workers = min(Parallel.workerCount, max(1, points.count))
            Parallel.run(workers) { worker in
                let router = worker == 0 ? self : Router(engine: engine)
                for index in stride(from: worker, to: points.count, by: workers) {
                    do {
                        out.pointer[index] = .success(try router.snapCandidates(points[index], index: index, options: options, metric: metric))
                    } catch let error as NavGraphError {
                        out.pointer[index] = .failure(error)
                    } catch {
                        out.pointer[index] = .failure(NavGraphError("point \(index + 1): \(error)"))
                    }
                }
            }
        }
        return results
    }
}
