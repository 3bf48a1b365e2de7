import CaseStore
import Foundation
import HTTPKit
import Synchronization
import Testing

@testable import InspectorCLI

@Suite("Desk: signing in, CSRF, who may do what, security headers")
struct DeskSessionTests {
  /// A seeded case file with investigator Ann's token, and a desk over it.
  final class Desk {
    let cli: CLITestCase
    let token: String
    let app: DeskApplication

    init(_ configuration: DeskConfiguration = DeskConfiguration()) throws {
      cli = try CLITestCase(seeded: true)
      token = try #require(lines(cli.succeed("serve", "token", "add", "Ann")).last)
      let pool = try CaseDatabasePool(path: cli.databasePath, readOnly: configuration.readOnly)
      app = DeskApplication(configuration: configuration, pool: pool, recheckInterval: .zero)
    }

    /// `request` answered by the desk.
    func send(
      _ method: String, _ path: String, headers: [HTTPField] = [], body: String = ""
    ) -> HTTPResponse {
      app.respond(
        to: HTTPRequest(
          method: method, path: path, headers: [HTTPField("Host", "127.0.0.1:8421")] + headers,
          body: Array(body.utf8)))
    }

    /// Signs in with `token` and returns the session cookie's value and the CSRF token.
    func signIn() throws -> (cookie: String, csrf: String) {
      let response = send("POST", "/api/session", body: "{\"token\": \"\(token)\"}")
      #expect(response.status == 200)
      let setCookie = try #require(response.header("Set-Cookie"))
      let cookie = try #require(setCookie.split(separator: ";").first?.split(separator: "=").last)
      let csrf = try #require(try json(response)["csrf_token"] as? String)
      return (String(cookie), csrf)
    }
  }

  @Test func signingInWithATokenSetsAStrictHttpOnlyCookie() throws {
    let desk = try Desk()
    #expect(try json(desk.send("GET", "/api/session"))["investigator"] is NSNull)
    let response = desk.send("POST", "/api/session", body: "{\"token\": \"\(desk.token)\"}")
    #expect(response.status == 200)
    let setCookie = try #require(response.header("Set-Cookie"))
    let parts = setCookie.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
    #expect(parts.first?.hasPrefix("inspector_session=") == true)
    #expect(parts.first?.count == "inspector_session=".count + 43)
    #expect(Array(parts.dropFirst()) == ["Max-Age=43200", "Path=/", "HttpOnly", "SameSite=Strict"])
    let body = try json(response)
    #expect(body["investigator"] as? String == "Ann")
    #expect((body["csrf_token"] as? String)?.count == 43)
    #expect(body["read_only"] as? Bool == false)
    #expect(body["public_read"] as? Bool == false)
    // The cookie names the session afterwards; the session is not the token.
    let (cookie, csrf) = try desk.signIn()
    #expect(cookie != desk.token && csrf != desk.token)
    let session = try json(
      desk.send(
        "GET", "/api/session", headers: [HTTPField("Cookie", "inspector_session=\(cookie)")]))
    #expect(session["investigator"] as? String == "Ann")
    #expect(session["csrf_token"] as? String == csrf)
  }

  @Test func aHostileNameComesBackAsJSONText() throws {
    let desk = try Desk()
    let name = "\"</script><script>alert(1)</script>"
    let token = try #require(lines(desk.cli.succeed("serve", "token", "add", name)).last)
    let response = desk.send("POST", "/api/session", body: "{\"token\": \"\(token)\"}")
    #expect(try json(response)["investigator"] as? String == name)
  }

  @Test func theCookieIsSecureWhenConfigured() throws {
    let desk = try Desk(DeskConfiguration(secureCookies: true))
    let response = desk.send("POST", "/api/session", body: "{\"token\": \"\(desk.token)\"}")
    #expect(response.header("Set-Cookie")?.hasSuffix("; HttpOnly; SameSite=Strict; Secure") == true)
  }

  @Test func aWrongTokenOrBodySignsNobodyIn() throws {
    let desk = try Desk()
    let wrong = desk.send("POST", "/api/session", body: "{\"token\": \"\(desk.token)x\"}")
    #expect(wrong.status == 401)
    #expect(wrong.header("Set-Cookie") == nil)
    #expect(
      try apiError(wrong) == ["kind": "unauthorized", "message": "that token signs nobody in"])
    #expect(desk.send("POST", "/api/session", body: "token=\(desk.token)").status == 400)
    #expect(desk.app.sessions.count == 0)
    // A made-up cookie is nobody.
    let made = desk.send(
      "GET", "/api/session", headers: [HTTPField("Cookie", "inspector_session=\(desk.token)")])
    #expect(try json(made)["investigator"] is NSNull)
  }

  @Test func writesNeedASessionAndItsCSRFToken() throws {
    let desk = try Desk()
    let edit = alibiEdit(from: "", to: "Asleep.")
    let changeSets = try jsonArray(desk.cli.succeed("history", "--json")).count
    let anonymous = desk.send("PATCH", "/api/suspects/10", body: edit)
    #expect(anonymous.status == 401)
    #expect(try apiError(anonymous)["kind"] == "unauthorized")
    let (cookie, csrf) = try desk.signIn()
    let withCookie = HTTPField("Cookie", "inspector_session=\(cookie)")
    let noCSRF = desk.send("PATCH", "/api/suspects/10", headers: [withCookie], body: edit)
    #expect(noCSRF.status == 403)
    #expect(try apiError(noCSRF)["kind"] == "forbidden")
    let wrongCSRF = desk.send(
      "PATCH", "/api/suspects/10", headers: [withCookie, HTTPField("X-CSRF-Token", csrf + "x")],
      body: edit)
    #expect(wrongCSRF.status == 403)
    // Another session's CSRF token does not do either.
    let (_, otherCSRF) = try desk.signIn()
    #expect(
      desk.send(
        "POST", "/api/undo", headers: [withCookie, HTTPField("X-CSRF-Token", otherCSRF)],
        body: "{\"change_set\": 1}"
      ).status == 403)
    // Nothing refused was stored.
    #expect(try jsonArray(desk.cli.succeed("history", "--json")).count == changeSets)
    #expect(try desk.cli.suspect("10")["alibi"] as? String == "")
    // With both, the write is stored with the investigator as actor.
    let allowed = desk.send(
      "PATCH", "/api/suspects/10", headers: [withCookie, HTTPField("X-CSRF-Token", csrf)],
      body: edit)
    #expect(allowed.status == 200)
    #expect(try json(allowed)["alibi"] as? String == "Asleep.")
    // From another site, even with both, it is refused.
    let foreign = desk.send(
      "PATCH", "/api/suspects/10",
      headers: [
        withCookie, HTTPField("X-CSRF-Token", csrf), HTTPField("Origin", "https://evil.example"),
      ], body: alibiEdit(from: "Asleep.", to: "Evil."))
    #expect(foreign.status == 403)
    #expect(try apiError(foreign)["message"] == "a write from another site is refused")
    let sameOrigin = desk.send(
      "PATCH", "/api/suspects/10",
      headers: [
        withCookie, HTTPField("X-CSRF-Token", csrf), HTTPField("Origin", "http://127.0.0.1:8421"),
      ], body: alibiEdit(from: "Asleep.", to: "Awake."))
    #expect(sameOrigin.status == 200)
    let proxied = desk.send(
      "PATCH", "/api/suspects/10",
      headers: [
        withCookie, HTTPField("X-CSRF-Token", csrf), HTTPField("Origin", "https://desk.example"),
        HTTPField("X-Forwarded-Host", "desk.example"),
      ], body: alibiEdit(from: "Awake.", to: "Dozing."))
    #expect(proxied.status == 200)
    #expect(try desk.cli.suspect("10")["alibi"] as? String == "Dozing.")
    let history = try jsonArray(desk.cli.succeed("history", "--json"))
    #expect(history.count == changeSets + 3)
    #expect(history.prefix(3).map { $0["actor"] as? String } == ["Ann", "Ann", "Ann"])
    let crossSite = desk.send(
      "POST", "/api/session", headers: [HTTPField("Sec-Fetch-Site", "cross-site")],
      body: "{\"token\": \"\(desk.token)\"}")
    #expect(crossSite.status == 403)
  }

  @Test func aReadOnlyDeskRefusesEveryWrite() throws {
    let desk = try Desk(DeskConfiguration(readOnly: true))
    let (cookie, csrf) = try desk.signIn()
    let headers = [
      HTTPField("Cookie", "inspector_session=\(cookie)"), HTTPField("X-CSRF-Token", csrf),
    ]
    for (method, path) in [("PATCH", "/api/suspects/1"), ("POST", "/api/undo"), ("PUT", "/api/x")] {
      let response = desk.send(method, path, headers: headers, body: "{}")
      #expect(response.status == 403)
      #expect(try apiError(response)["message"] == "this desk is read-only: it serves no write")
    }
    let session = try json(desk.send("GET", "/api/session", headers: headers))
    #expect(session["read_only"] as? Bool == true)
    #expect(session["investigator"] as? String == "Ann")
  }

  @Test func readsNeedASessionUnlessPublicReadIsConfigured() throws {
    let closed = try Desk()
    let refused = closed.send("GET", "/api/fruits")
    #expect(refused.status == 401)
    #expect(try apiError(refused)["kind"] == "unauthorized")
    let (cookie, _) = try closed.signIn()
    let signedIn = closed.send(
      "GET", "/api/fruits", headers: [HTTPField("Cookie", "inspector_session=\(cookie)")])
    #expect(signedIn.status == 200)
    #expect(try firstFruit(signedIn) == "Golden Gem Apple")
    let open = try Desk(DeskConfiguration(publicRead: true))
    let publicly = open.send("GET", "/api/fruits")
    #expect(publicly.status == 200)
    #expect(try firstFruit(publicly) == "Golden Gem Apple")
    #expect(try json(open.send("GET", "/api/session"))["public_read"] as? Bool == true)
    // Public reading is not public writing.
    #expect(open.send("PATCH", "/api/suspects/1", body: "{}").status == 401)
  }

  @Test func signingOutNeedsTheCSRFTokenAndEndsTheSession() throws {
    let desk = try Desk()
    let (cookie, csrf) = try desk.signIn()
    let withCookie = HTTPField("Cookie", "inspector_session=\(cookie)")
    #expect(desk.send("DELETE", "/api/session", headers: [withCookie]).status == 403)
    let out = desk.send(
      "DELETE", "/api/session", headers: [withCookie, HTTPField("X-CSRF-Token", csrf)])
    #expect(out.status == 200)
    #expect(
      out.header("Set-Cookie") == "inspector_session=; Max-Age=0; Path=/; HttpOnly; SameSite=Strict"
    )
    #expect(
      try json(desk.send("GET", "/api/session", headers: [withCookie]))["investigator"] is NSNull)
    #expect(desk.send("GET", "/api/fruits", headers: [withCookie]).status == 401)
  }

  @Test func revokingTheTokenEndsItsSessions() throws {
    let desk = try Desk()
    let (cookie, _) = try desk.signIn()
    let withCookie = HTTPField("Cookie", "inspector_session=\(cookie)")
    #expect(desk.send("GET", "/api/fruits", headers: [withCookie]).status == 200)
    desk.cli.succeed("serve", "token", "revoke", "Ann")
    #expect(desk.send("GET", "/api/fruits", headers: [withCookie]).status == 401)
    // A new token for the same name does not bring the old session back.
    desk.cli.succeed("serve", "token", "add", "Ann")
    #expect(desk.send("GET", "/api/fruits", headers: [withCookie]).status == 401)
  }

  /// Whether `stream`'s next chunk is `nil` (the stream ended) within `seconds`.
  private func ends(_ stream: any HTTPBodyStream, within seconds: Double) -> Bool {
    let ended = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      if stream.next() == nil { ended.signal() }
    }
    return ended.wait(timeout: .now() + seconds) == .success
  }

  @Test(arguments: ["revoke", "sign out"])
  func anOpenEventStreamEndsWithItsSession(ending: String) throws {
    let desk = try Desk()
    let (cookie, csrf) = try desk.signIn()
    let withCookie = HTTPField("Cookie", "inspector_session=\(cookie)")
    let response = desk.send("GET", "/api/events", headers: [withCookie])
    #expect(response.status == 200)
    guard case .stream(let stream) = response.body else {
      Issue.record("not a stream")
      return
    }
    defer { stream.close() }
    #expect(
      stream.next().map { String(decoding: $0, as: UTF8.self) } == "retry: 1000\n: connected\n\n")
    // While the session lives, the stream waits for the next change.
    #expect(!ends(stream, within: 0.5))
    if ending == "revoke" {
      desk.cli.succeed("serve", "token", "revoke", "Ann")
    } else {
      let out = desk.send(
        "DELETE", "/api/session", headers: [withCookie, HTTPField("X-CSRF-Token", csrf)])
      #expect(out.status == 200)
    }
    // The waiting next() (still running on its thread) returns nil within a poll or two.
    let deadline = Date().addingTimeInterval(5)
    var ended = false
    while !ended && Date() < deadline { ended = ends(stream, within: 0.5) }
    #expect(ended)
  }

  @Test func aPublicEventStreamHasNoSessionToEndWith() throws {
    let desk = try Desk(DeskConfiguration(publicRead: true))
    let response = desk.send("GET", "/api/events")
    guard case .stream(let stream) = response.body else {
      Issue.record("not a stream")
      return
    }
    defer { stream.close() }
    _ = stream.next()
    desk.cli.succeed("serve", "token", "revoke", "Ann")
    #expect(!ends(stream, within: 0.5))
  }

  @Test func everyResponseCarriesTheSecurityHeaders() throws {
    let desk = try Desk()
    let (cookie, _) = try desk.signIn()
    let responses = [
      desk.send("GET", "/api/session"),
      desk.send("GET", "/api/fruits"),
      desk.send("PATCH", "/api/suspects/1", body: "{}"),
      desk.send(
        "GET", "/api/fruits", headers: [HTTPField("Cookie", "inspector_session=\(cookie)")]),
      desk.send("POST", "/api/session", body: "{\"token\": \"\(desk.token)\"}"),
    ]
    for response in responses + [desk.send("GET", "/no-such-page")] {
      #expect(
        response.header("Content-Security-Policy")
          == "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
          + " connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'")
      #expect(response.header("X-Content-Type-Options") == "nosniff")
      #expect(response.header("Referrer-Policy") == "no-referrer")
      #expect(response.header("X-Frame-Options") == "DENY")
    }
    for response in responses {
      #expect(response.headers.filter { $0.name == "Cache-Control" }.map(\.value) == ["no-store"])
    }
  }

  @Test func aSessionEndsTwelveHoursAfterSigningIn() {
    let start = ContinuousClock.now
    let clock = Mutex(start)
    let sessions = DeskSessions(now: { clock.withLock { $0 } })
    let session = sessions.open(investigator: "Ann", tokenHash: [1])
    clock.withLock { $0 = start + .seconds(12 * 60 * 60 - 1) }
    #expect(sessions.session(id: session.id)?.investigator == "Ann")
    clock.withLock { $0 = start + .seconds(12 * 60 * 60) }
    #expect(sessions.session(id: session.id) == nil)
    #expect(sessions.count == 0)
  }

  @Test func sessionsAreBounded() {
    let sessions = DeskSessions(limit: 2)
    let first = sessions.open(investigator: "Ann", tokenHash: [1])
    let second = sessions.open(investigator: "Bob", tokenHash: [2])
    let third = sessions.open(investigator: "Cy", tokenHash: [3])
    #expect(sessions.count == 2)
    #expect(sessions.session(id: first.id) == nil)
    #expect(sessions.session(id: second.id)?.investigator == "Bob")
    #expect(sessions.session(id: third.id)?.investigator == "Cy")
    #expect(Set([first.id, second.id, third.id]).count == 3)
    #expect(second.expires - second.checked == .seconds(12 * 60 * 60))
  }
}

/// The response's body as a JSON object.
private func json(_ response: HTTPResponse) throws -> [String: Any] {
  guard case .bytes(let bytes) = response.body else { return [:] }
  return try jsonObject(String(decoding: bytes, as: UTF8.self))
}

/// The response's `error` object's string members.
private func apiError(_ response: HTTPResponse) throws -> [String: String] {
  let object = try #require(try json(response)["error"] as? [String: Any])
  return object.compactMapValues { $0 as? String }
}

/// The name of the first fruit of a `/api/fruits` answer.
private func firstFruit(_ response: HTTPResponse) throws -> String? {
  guard case .bytes(let bytes) = response.body else { return nil }
  return try jsonArray(String(decoding: bytes, as: UTF8.self)).first?["name"] as? String
}

/// The body of a `PATCH /api/suspects/{id}` of the alibi from `old` to `new`.
private func alibiEdit(from old: String, to new: String) -> String {
  "{\"field\": \"alibi\", \"expected\": \"\(old)\", \"value\": \"\(new)\"}"
}
