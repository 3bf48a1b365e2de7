import CaseStore
import HTTPKit

/// The JSON API under `/api/` (docs/web-desk.md "API"): each route answers with the JSON
/// shapes of the command line's `--json` (docs/output-formats.md).
struct DeskAPI: Sendable {
  /// Where every request's read or write transaction comes from.
  let pool: CaseDatabasePool
  /// No write route is served.
  let readOnly: Bool

  /// The response to `request`, made on behalf of `investigator` (the actor of any write;
  /// `nil` when nobody is signed in, which the application allows for reads only).
  func respond(to request: HTTPRequest, investigator: String?) -> HTTPResponse {
    for route in Self.readRoutes + Self.writeRoutes {
      guard let parameters = route.match(request.path) else { continue }
      guard route.method == request.method else { continue }
      let call = DeskCall(request: request, parameters: parameters, investigator: investigator)
      do {
        return try route.handler(self, call)
      } catch {
        return Self.errorResponse(for: error)
      }
    }
    return Self.errorResponse(status: 404, kind: "not_found", message: "no such endpoint")
  }
}

/// One request as a route's handler sees it.
struct DeskCall: Sendable {
  /// The request.
  let request: HTTPRequest
  /// The path's named parts (`{id}` in the pattern gives `parameters["id"]`).
  let parameters: [String: String]
  /// Who is signed in, or `nil`.
  let investigator: String?
}

/// A method, a path pattern (`/api/suspects/{id}`) and what answers it.
struct DeskRoute: Sendable {
  /// `GET`, `POST`, `PATCH` or `DELETE`.
  let method: String
  /// The path, with `{name}` for a segment captured as a parameter.
  let pattern: String
  /// The handler; what it throws becomes a JSON error (``DeskAPI/errorResponse(for:)``).
  let handler: @Sendable (DeskAPI, DeskCall) throws -> HTTPResponse

  /// The parameters when `path` matches the pattern, else `nil`.
  func match(_ path: String) -> [String: String]? {
    let want = pattern.split(separator: "/", omittingEmptySubsequences: false)
    let have = path.split(separator: "/", omittingEmptySubsequences: false)
    guard want.count == have.count else { return nil }
    var parameters: [String: String] = [:]
    for (pattern, part) in zip(want, have) {
      if pattern.hasPrefix("{"), pattern.hasSuffix("}") {
        guard !part.isEmpty else { return nil }
        parameters[String(pattern.dropFirst().dropLast())] = String(part)
      } else if pattern != part {
        return nil
      }
    }
    return parameters
  }
}
