import CaseStore
import Synchronization

/// One signed-in investigator's session (docs/web-desk.md "Signing in, and who may do what").
struct DeskSession: Sendable, Equatable {
  /// The session's id: the `inspector_session` cookie's value (32 random bytes, URL-safe).
  let id: String
  /// The investigator, the actor of every write made with the session.
  let investigator: String
  /// What every write must carry in its `X-CSRF-Token` header (32 random bytes, URL-safe).
  let csrfToken: String
  /// The SHA-256 of the token that signed in, to check that it is still not revoked.
  let tokenHash: [UInt8]
  /// When the session ends, whatever happens.
  let expires: ContinuousClock.Instant
  /// When the token was last found in the case file.
  var checked: ContinuousClock.Instant
}

/// The desk's sessions, in memory only (a restart signs everybody out): at most ``limit``,
/// each for ``lifetime`` at most, the oldest dropped first when a new one would exceed the
/// limit. Safe to use from every connection's thread.
final class DeskSessions: Sendable {
  /// How long a session lasts after sign-in: 12 hours.
  static let lifetime: Duration = .seconds(12 * 60 * 60)
  /// How many sessions are kept at most.
  let limit: Int
  /// The time now (the continuous clock's; tests move it).
  let now: @Sendable () -> ContinuousClock.Instant
  private let sessions = Mutex<[String: DeskSession]>([:])

  /// An empty store of at most `limit` sessions (1 or more), telling the time with `now`.
  init(limit: Int = 10_000, now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
    self.limit = max(1, limit)
    self.now = now
  }

  /// Opens a session for `investigator`, who signed in with the token whose hash is
  /// `tokenHash`: a new random id and CSRF token.
  func open(investigator: String, tokenHash: [UInt8]) -> DeskSession {
    let now = self.now()
    let session = DeskSession(
      id: SecretText.random(), investigator: investigator, csrfToken: SecretText.random(),
      tokenHash: tokenHash, expires: now + Self.lifetime, checked: now)
    sessions.withLock { sessions in
      sessions = sessions.filter { $0.value.expires > now }
      while sessions.count >= limit,
        let oldest = sessions.min(by: { $0.value.expires < $1.value.expires })
      {
        sessions[oldest.key] = nil
      }
      sessions[session.id] = session
    }
    return session
  }

  /// The live session whose id is `id`, or `nil` (unknown or expired; an expired one is
  /// dropped).
  func session(id: String?) -> DeskSession? {
    guard let id, !id.isEmpty else { return nil }
    let now = self.now()
    return sessions.withLock { sessions in
      guard let session = sessions[id] else { return nil }
      guard session.expires > now else {
        sessions[id] = nil
        return nil
      }
      return session
    }
  }

  /// Notes that session `id`'s token was found in the case file just now.
  func markChecked(id: String) {
    let now = self.now()
    sessions.withLock { $0[id]?.checked = now }
  }

  /// Ends session `id` (signing out, or its token revoked).
  func close(id: String) {
    _ = sessions.withLock { $0.removeValue(forKey: id) }
  }

  /// How many sessions are kept now (expired ones not yet dropped included).
  var count: Int { sessions.withLock { $0.count } }
}
