import Foundation
import NavGraphCore

/// What a route refresh needs of the routes one request issued: how they were asked for and the paths they took.
package struct RefreshableRoutes: Sendable {
    /// The profile and the parsed request (avoidance, vehicle, language, departure, annotations, waypoints).
    package var profile: ProfileID
    package var parameters: RouteEndpoint.Parameters
    /// Whether the request routed with the live traffic (Mapbox `driving-traffic`).
    package var usesTraffic: Bool
    /// Annotations the dialect's writer added (Mapbox's `closure`, `traffic_tendency`).
    package var dialectAnnotations: Set<String>
    /// Each route's legs between every pair of consecutive coordinates (before silent via points are merged).
    package var routes: [[Router.LegPath]]
    /// When the routes were issued.
    package var issued: Date
}

/// The routes issued with `enable_refresh=true`, by response uuid, for `/directions-refresh/v1`: bounded by a count
/// (the oldest go first) and an age (older entries are expired).
///
/// Lifetime: one per service. Thread safety: every access is behind a lock; entries are immutable values.
package final class RouteRefreshCache: @unchecked Sendable {
    package let capacity: Int
    package let maximumAge: TimeInterval
    private let lock = NSLock()
    private var entries: [String: RefreshableRoutes] = [:]
    /// Insertion order, oldest first (uuids may repeat after removal; stale ones are skipped).
    private var order: [String] = []
    private var orderStart = 0

    package init(capacity: Int, maximumAge: TimeInterval) {
        self.capacity = max(0, capacity)
        self.maximumAge = maximumAge
    }

    /// Entries held now.
    package var count: Int { lock.withLock { entries.count } }

    package func insert(_ uuid: String, _ routes: RefreshableRoutes) {
        guard capacity > 0 else { return }
        lock.withLock {
            entries[uuid] = routes
            order.append(uuid)
            evict(now: routes.issued)
        }
    }

    /// The routes of a uuid while they are young enough; nil when unknown or expired.
    package func routes(_ uuid: String, now: Date = Date()) -> RefreshableRoutes? {
        lock.withLock {
            evict(now: now)
            return entries[uuid]
        }
    }

    /// Drops entries over the count or past the age, oldest first. Called under the lock.
    private func evict(now: Date) {
        while orderStart < order.count {
            let uuid = order[orderStart]
            guard let entry = entries[uuid] else { orderStart += 1; continue }
            guard entries.count > capacity || now.timeIntervalSince(entry.issued) > maximumAge else { break }
            entries[uuid] = nil
            orderStart += 1
        }
        if orderStart > 1024 && orderStart * 2 > order.count {
            order.removeFirst(orderStart)
            orderStart = 0
        }
    }
}
