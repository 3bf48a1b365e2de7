import SQLiteKit

/// An investigator who may sign in to the desk in the browser: the name (the actor of every
/// change they make there) and when their token was made (docs/web-desk.md "Signing in, and
/// who may do what"). The token's hash is never part of it.
public struct Investigator: Equatable, Sendable {
  /// The name, as given to `serve token add`.
  public let name: String
  /// When the token was made, UTC, as the history writes times (`2026-12-02T11:17:11.000Z`).
  public let createdAt: String

  /// An investigator from its parts.
  public init(name: String, createdAt: String) {
    self.name = name
    self.createdAt = createdAt
  }
}

/// The investigators' personal access tokens (`investigator_tokens`, docs/schema.md): made,
/// listed, revoked and checked. Only each token's SHA-256 is stored; the token itself is
/// returned once by ``add(name:)`` and kept nowhere. Not a recorded table: a token's addition
/// or revocation makes no change set of the history.
public struct InvestigatorTokens<Kind: UnitOfWorkKind> {
  // MARK: - Properties

  let database: CaseDatabase

  // MARK: - Public API

  /// Random bytes in a token: 32 (256 bits), shown as 43 characters of URL-safe base64.
  public static var tokenByteCount: Int { 32 }

  /// Every investigator with a token, by name (ignoring the case of ASCII letters).
  ///
  /// - Throws: `SQLiteError` when the database cannot be read.
  public func all() throws -> [Investigator] {
    let rows = try database.statement(
      "SELECT name, created_at FROM investigator_tokens ORDER BY lower(name), name")
    var result: [Investigator] = []
    while try rows.step() {
      result.append(Investigator(name: rows.text(at: 0), createdAt: rows.text(at: 1)))
    }
    return result
  }

  /// The investigator whose token `token` is, or `nil` when it is nobody's.
  ///
  /// The SHA-256 of `token`'s UTF-8 text (``SecretText/hash(_:)``) is compared with every stored
  /// hash (``investigator(tokenHash:)``). A token of more than 256 bytes, or an empty one, is
  /// nobody's (tokens are 43 characters).
  ///
  /// - Throws: `SQLiteError` when the database cannot be read.
  public func investigator(presenting token: String) throws -> Investigator? {
    guard let hash = SecretText.hash(token) else { return nil }
    return try investigator(tokenHash: hash)
  }

  /// The investigator whose token's SHA-256 is `hash`, or `nil`: how a session is checked
  /// again without keeping its token. Every stored hash is compared, each comparison taking the
  /// same time whatever the bytes, so that the answer's timing tells nothing of a stored hash.
  ///
  /// - Throws: `SQLiteError` when the database cannot be read.
  public func investigator(tokenHash hash: [UInt8]) throws -> Investigator? {
    let rows = try database.statement(
      "SELECT name, created_at, token_hash FROM investigator_tokens ORDER BY name")
    var found: Investigator?
    while try rows.step() {
      if SecretText.same(rows.blob(at: 2), hash), found == nil {
        found = Investigator(name: rows.text(at: 0), createdAt: rows.text(at: 1))
      }
    }
    return found
  }
}

extension InvestigatorTokens where Kind == Writing {
  /// Gives `name` a new token and returns it: 32 bytes from the system's secure random source
  /// as 43 characters of URL-safe base64 without padding. Only its SHA-256 is stored.
  ///
  /// - Parameter name: 1 to 64 characters, no control character, no space at either end.
  /// - Returns: The investigator as stored, and the token (shown once, kept nowhere).
  /// - Throws: ``CaseError/invalidValue(field:value:expected:)`` for a name outside the rule,
  ///   ``CaseError/duplicateInvestigator(_:)`` when the name (ignoring the case of ASCII
  ///   letters) already has a token, or `SQLiteError`.
  public func add(name: String) throws -> (investigator: Investigator, token: String) {
    try Self.checkName(name)
    let taken = try database.statement(
      "SELECT 1 FROM investigator_tokens WHERE lower(name) = lower(?)")
    try taken.bind([name])
    if try taken.step() { throw CaseError.duplicateInvestigator(name) }
    let token = SecretText.random(byteCount: Self.tokenByteCount)
    try database.statement(
      """
      INSERT INTO investigator_tokens (name, token_hash, created_at)
      VALUES (?, ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
      """
    ).run([name, SQLiteValue.blob(SHA256.digest(of: Array(token.utf8)))])
    let created = try database.statement(
      "SELECT name, created_at FROM investigator_tokens WHERE name = ?")
    try created.bind([name])
    _ = try created.step()
    return (Investigator(name: created.text(at: 0), createdAt: created.text(at: 1)), token)
  }

  /// Revokes `name`'s token: it signs nobody in from now on (sessions it opened end when the
  /// server next checks them).
  ///
  /// - Returns: The investigator as it was.
  /// - Throws: ``CaseError/unknownInvestigator(_:)`` when no investigator has that name
  ///   (ignoring the case of ASCII letters), or `SQLiteError`.
  @discardableResult
  public func revoke(name: String) throws -> Investigator {
    let existing = try database.statement(
      "SELECT name, created_at FROM investigator_tokens WHERE lower(name) = lower(?)")
    try existing.bind([name])
    guard try existing.step() else { throw CaseError.unknownInvestigator(name) }
    let investigator = Investigator(name: existing.text(at: 0), createdAt: existing.text(at: 1))
    try database.statement("DELETE FROM investigator_tokens WHERE name = ?")
      .run([investigator.name])
    return investigator
  }

  /// Throws unless `name` is 1 to 64 characters, without control characters or a space at
  /// either end (the table's CHECK says the same).
  static func checkName(_ name: String) throws {
    let fits =
      (1...64).contains(name.unicodeScalars.count) && name.unicodeScalars.first != " "
      && name.unicodeScalars.last != " "
      && !name.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
    guard fits else {
      throw CaseError.invalidValue(
        field: "investigator name", value: name,
        expected: "1 to 64 characters, no control character, no space at either end")
    }
  }
}

/// Secrets made of random bytes (investigators' tokens, the desk's session ids and CSRF
/// tokens), their hashes and their comparison.
public enum SecretText {
  /// `byteCount` bytes from the system's secure random source (`SystemRandomNumberGenerator`:
  /// `getrandom(2)` on Linux, `arc4random_buf` on macOS) as URL-safe base64 (`-` and `_`)
  /// without padding: 43 characters for 32 bytes.
  public static func random(byteCount: Int = 32) -> String {
    var generator = SystemRandomNumberGenerator()
    return base64URL(
      (0..<byteCount).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
  }

  /// The SHA-256 of `token`'s UTF-8 text (32 bytes), or `nil` for an empty token or one of more
  /// than 256 bytes, which is nobody's (tokens are 43 characters).
  public static func hash(_ token: String) -> [UInt8]? {
    let text = Array(token.utf8)
    guard !text.isEmpty, text.count <= 256 else { return nil }
    return SHA256.digest(of: text)
  }

  /// Whether `a` and `b` hold the same bytes, in a time that depends on their lengths only
  /// (not on where they first differ).
  public static func same(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    guard a.count == b.count else { return false }
    var difference: UInt8 = 0
    for index in a.indices { difference |= a[index] ^ b[index] }
    return difference == 0
  }

  /// `bytes` as URL-safe base64 (`-` and `_`) without padding.
  static func base64URL(_ bytes: [UInt8]) -> String {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    var text = ""
    var index = 0
    while index < bytes.count {
      let chunk = bytes[index..<min(index + 3, bytes.count)]
      var value: UInt32 = 0
      for (offset, byte) in chunk.enumerated() { value |= UInt32(byte) << (16 - 8 * offset) }
      for position in 0...chunk.count {
        text.append(alphabet[Int((value >> (18 - 6 * position)) & 0x3F)])
      }
      index += 3
    }
    return text
  }
}

extension CaseTransaction {
  /// The investigators who may sign in to the desk, and their tokens (hashes only).
  public var investigators: InvestigatorTokens<Kind> { InvestigatorTokens(database: database) }
}
