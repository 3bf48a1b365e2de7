import CaseStore
import Foundation
import HTTPKit

/// How `inspector serve` serves the desk (docs/web-desk.md "Signing in, and who may do what").
public struct DeskConfiguration: Sendable {
  /// Reading without signing in (allowed only on a loopback address; the serve command checks).
  public var publicRead: Bool
  /// No write of any kind is served.
  public var readOnly: Bool
  /// The session cookie carries `Secure` (TLS is configured, or a TLS proxy is in front).
  public var secureCookies: Bool

  /// A configuration from its parts.
  public init(publicRead: Bool = false, readOnly: Bool = false, secureCookies: Bool = false) {
    self.publicRead = publicRead
    self.readOnly = readOnly
    self.secureCookies = secureCookies
  }
}

/// The desk as one ``HTTPHandler``: the page's files, the session endpoint, and the JSON API,
/// with who may do what decided before the API is reached (docs/web-desk.md "Signing in, and
/// who may do what").
///
/// - The page's files are always served (the page shows a sign-in form).
/// - `GET`, `POST` and `DELETE /api/session`: who is signed in, signing in with a token,
///   signing out (``sessionEndpoint(_:_:)``).
/// - Every other method than `GET` and `HEAD` under `/api/` is a write: refused with 403
///   `forbidden` when the desk is read-only or the `Origin` header names another host, 401
///   `unauthorized` without a session, 403 `forbidden` without the session's `X-CSRF-Token`.
/// - A read needs a session unless ``DeskConfiguration/publicRead`` (401 `unauthorized`).
/// - The live changes (`/api/events`) of a session end when the session does: signed out,
///   expired, or its token revoked (found within ``recheckInterval``).
///
/// Every response carries the security headers (``securityHeaders``), and `Cache-Control:
/// no-store` under `/api/`.
public final class DeskApplication: HTTPHandler {
  /// The configuration it serves with.
  public let configuration: DeskConfiguration
  /// The JSON API.
  let api: DeskAPI
  /// Where the tokens are checked.
  let pool: CaseDatabasePool
  /// The signed-in investigators.
  let sessions: DeskSessions
  /// How often a session's token is looked up again, so that a revoked token's sessions end:
  /// every 10 seconds (tests make it zero).
  let recheckInterval: Duration

  /// The session cookie's name.
  static let cookieName = "inspector_session"

  /// The headers every response carries: a Content-Security-Policy that allows the page's own
  /// files only (no inline script, no other host, no framing), no MIME sniffing, no referrer.
  static let securityHeaders: [HTTPField] = [
    HTTPField(
      "Content-Security-Policy",
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
        + " connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"),
    HTTPField("X-Content-Type-Options", "nosniff"),
    HTTPField("Referrer-Policy", "no-referrer"),
    HTTPField("X-Frame-Options", "DENY"),
  ]

  /// A desk over the case file the pool opens.
  public convenience init(configuration: DeskConfiguration, pool: CaseDatabasePool) {
    self.init(configuration: configuration, pool: pool, recheckInterval: .seconds(10))
  }

  /// A desk whose sessions' tokens are looked up again every `recheckInterval`.
  init(configuration: DeskConfiguration, pool: CaseDatabasePool, recheckInterval: Duration) {
    self.configuration = configuration
    self.api = DeskAPI(pool: pool, readOnly: configuration.readOnly)
    self.pool = pool
    self.sessions = DeskSessions()
    self.recheckInterval = recheckInterval
  }

  /// The response to `request`, with the security headers.
  public func respond(to request: HTTPRequest) -> HTTPResponse {
    var response = route(request)
    var headers = response.headers.filter { field in
      !Self.securityHeaders.contains { $0.name.lowercased() == field.name.lowercased() }
    }
    headers += Self.securityHeaders
    if request.path.hasPrefix("/api/") {
      headers.removeAll { $0.name.lowercased() == "cache-control" }
      headers.append(HTTPField("Cache-Control", "no-store"))
    }
    response.headers = headers
    return response
  }

  // MARK: - Internal helpers

  /// The response before the security headers are added.
  func route(_ request: HTTPRequest) -> HTTPResponse {
    if let asset = DeskAssets.response(to: request) { return asset }
    guard request.path.hasPrefix("/api/") else {
      return DeskAPI.errorResponse(status: 404, kind: "not_found", message: "no such page")
    }
    let session = currentSession(request)
    if request.path == "/api/session" { return sessionEndpoint(request, session) }
    if ["GET", "HEAD"].contains(request.method) {
      guard session != nil || configuration.publicRead else {
        return Self.unauthorized("sign in with your investigator's token to read the case")
      }
      let response = api.respond(to: request, investigator: session?.investigator)
      if let session, case .stream(let body) = response.body,
        let events = body as? DeskEventStream
      {
        // A session's live changes end with the session (signed out, expired, token revoked).
        events.end { [self] in currentSession(id: session.id) == nil }
      }
      return response
    }
    if configuration.readOnly {
      return DeskAPI.errorResponse(
        status: 403, kind: "forbidden", message: "this desk is read-only: it serves no write")
    }
    if let refusal = writeRefusal(request, session) { return refusal }
    return api.respond(to: request, investigator: session?.investigator)
  }

  /// `/api/session`: `GET` says who is signed in; `POST {"token": T}` signs in (401 for a
  /// token that is nobody's) and sets the session cookie; `DELETE` signs out (a write: needs
  /// the session and its CSRF token). Each answers `{"investigator", "csrf_token",
  /// "read_only", "public_read"}`.
  func sessionEndpoint(_ request: HTTPRequest, _ session: DeskSession?) -> HTTPResponse {
    switch request.method {
    case "GET", "HEAD":
      return sessionResponse(session)
    case "POST":
      if let refusal = originRefusal(request) { return refusal }
      struct SignIn: Decodable { let token: String }
      guard let signIn = try? JSONDecoder().decode(SignIn.self, from: Data(request.body)) else {
        return DeskAPI.errorResponse(
          status: 400, kind: "usage", message: "send {\"token\": \"...\"} to sign in")
      }
      let found: Investigator?
      do {
        found = try pool.read { try $0.investigators.investigator(presenting: signIn.token) }
      } catch {
        return DeskAPI.errorResponse(for: error)
      }
      guard let investigator = found, let hash = SecretText.hash(signIn.token)
      else {
        return Self.unauthorized("that token signs nobody in")
      }
      if let session { sessions.close(id: session.id) }
      let opened = sessions.open(investigator: investigator.name, tokenHash: hash)
      var response = sessionResponse(opened)
      response.headers.append(
        HTTPField(
          "Set-Cookie",
          cookie(value: opened.id, maxAge: Int(DeskSessions.lifetime.components.seconds))))
      return response
    case "DELETE":
      if let refusal = writeRefusal(request, session) { return refusal }
      if let session { sessions.close(id: session.id) }
      var response = sessionResponse(nil)
      response.headers.append(HTTPField("Set-Cookie", cookie(value: "", maxAge: 0)))
      return response
    default:
      return DeskAPI.errorResponse(
        status: 405, kind: "usage", message: "/api/session answers GET, POST and DELETE")
    }
  }

  /// Why a write is refused (403 for another origin, 401 without a session, 403 without its
  /// CSRF token), or `nil` when it may go on.
  func writeRefusal(_ request: HTTPRequest, _ session: DeskSession?) -> HTTPResponse? {
    if let refusal = originRefusal(request) { return refusal }
    guard let session else {
      return Self.unauthorized("sign in with your investigator's token to change the case")
    }
    guard let presented = request.header("X-CSRF-Token"),
      SecretText.same(Array(presented.utf8), Array(session.csrfToken.utf8))
    else {
      return DeskAPI.errorResponse(
        status: 403, kind: "forbidden",
        message: "missing or wrong X-CSRF-Token header: reload the page and try again")
    }
    return nil
  }

  /// 403 when the request's `Origin` (or `Sec-Fetch-Site`) says it comes from another site
  /// than the host it was sent to; `nil` when it says nothing or the same host. The host is the
  /// `Host` header, or `X-Forwarded-Host` as a TLS proxy in front sets it (a browser's page on
  /// another site cannot set that header without a preflight the desk never answers).
  func originRefusal(_ request: HTTPRequest) -> HTTPResponse? {
    let refused = DeskAPI.errorResponse(
      status: 403, kind: "forbidden", message: "a write from another site is refused")
    if let site = request.header("Sec-Fetch-Site"), site == "cross-site" { return refused }
    guard let origin = request.header("Origin") else { return nil }
    guard let schemeEnd = origin.range(of: "://") else { return refused }
    let from = origin[schemeEnd.upperBound...].lowercased()
    let hosts = [request.header("Host"), request.header("X-Forwarded-Host")].compactMap {
      $0?.lowercased()
    }
    return hosts.contains(from) ? nil : refused
  }

  /// The session the request's cookie names, when it is live and its token is not revoked
  /// (looked up again at most every ``recheckInterval``).
  func currentSession(_ request: HTTPRequest) -> DeskSession? {
    currentSession(id: request.cookie(Self.cookieName))
  }

  /// The session whose id is `id`, when it is live and its token is not revoked (looked up
  /// again at most every ``recheckInterval``); a session whose token was revoked is closed.
  func currentSession(id: String?) -> DeskSession? {
    guard let session = sessions.session(id: id) else { return nil }
    guard sessions.now() - session.checked >= recheckInterval else { return session }
    let holder: Investigator?
    do {
      holder = try pool.read { try $0.investigators.investigator(tokenHash: session.tokenHash) }
    } catch {
      // The case file could not be read just now: keep the session, look again next time.
      return session
    }
    guard holder?.name == session.investigator else {
      sessions.close(id: session.id)
      return nil
    }
    sessions.markChecked(id: session.id)
    return session
  }

  /// `{"investigator", "csrf_token", "read_only", "public_read"}` for `session`.
  func sessionResponse(_ session: DeskSession?) -> HTTPResponse {
    let body =
      "{\"investigator\":\(session.map { JSONValue.quoted($0.investigator) } ?? "null"),"
      + "\"csrf_token\":\(session.map { JSONValue.quoted($0.csrfToken) } ?? "null"),"
      + "\"read_only\":\(configuration.readOnly),\"public_read\":\(configuration.publicRead)}\n"
    return HTTPResponse(
      status: 200, headers: [HTTPField("Content-Type", "application/json; charset=utf-8")],
      body: .bytes(Array(body.utf8)))
  }

  /// The session cookie: HttpOnly, SameSite=Strict, for the whole site, Secure when
  /// configured.
  func cookie(value: String, maxAge: Int) -> String {
    "\(Self.cookieName)=\(value); Max-Age=\(maxAge); Path=/; HttpOnly; SameSite=Strict"
      + (configuration.secureCookies ? "; Secure" : "")
  }

  /// 401 `unauthorized` with `message`.
  static func unauthorized(_ message: String) -> HTTPResponse {
    DeskAPI.errorResponse(status: 401, kind: "unauthorized", message: message)
  }
}
