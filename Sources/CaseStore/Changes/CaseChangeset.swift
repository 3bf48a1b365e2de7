import SQLiteKit

/// A changeset file (docs/changes.md): one header line, `fruit-inspectors changeset 1 schema N`
/// (N: the schema version both sides were at), then SQLite's changeset bytes as the session
/// extension writes them.
public struct CaseChangeset: Sendable, Equatable {
  /// The header's first words.
  static let magic = "fruit-inspectors changeset 1 schema "

  /// The schema version (migration number) the changes were taken at.
  public let schemaVersion: Int
  /// SQLite's changeset.
  let changeset: Changeset

  init(schemaVersion: Int, changeset: Changeset) {
    self.schemaVersion = schemaVersion
    self.changeset = changeset
  }

  /// The file's bytes: the header line, then the changeset.
  public var fileBytes: [UInt8] {
    Array((Self.magic + "\(schemaVersion)\n").utf8) + changeset.bytes
  }

  /// Reads a changeset file's bytes.
  ///
  /// - Parameters:
  ///   - fileBytes: The whole file.
  ///   - path: The file's name, for errors.
  /// - Throws: ``ChangesError/notAChangeset(_:)`` when the header is missing or the changeset
  ///   bytes do not decode.
  public init(fileBytes: [UInt8], path: String) throws {
    let magic = Array(Self.magic.utf8)
    guard fileBytes.count > magic.count, Array(fileBytes.prefix(magic.count)) == magic,
      let end = fileBytes[magic.count...].firstIndex(of: UInt8(ascii: "\n")),
      let version = Int(String(decoding: fileBytes[magic.count..<end], as: UTF8.self))
    else { throw ChangesError.notAChangeset(path) }
    schemaVersion = version
    changeset = Changeset(bytes: Array(fileBytes[(end + 1)...]))
    do {
      _ = try changeset.changes()
    } catch {
      throw ChangesError.notAChangeset(path)
    }
  }
}

/// Why `diff` or `changes` refused (exit codes in docs/exit-codes.md: 65, or 1 without the
/// session extension).
public enum ChangesError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The linked SQLite library has no session extension.
  case sessionExtensionMissing
  /// The file is not a changeset written by `changes export`.
  case notAChangeset(String)
  /// The other case file, or the changeset, is at another schema version than the database.
  case schemaMismatch(String, found: Int, expected: Int)
  /// Applying met conflicts and no `--on-conflict` said what to do; nothing was applied. Each
  /// entry: the conflict's kind and the change in words.
  case conflicts([(kind: String, change: String)])

  public static func == (lhs: ChangesError, rhs: ChangesError) -> Bool {
    lhs.description == rhs.description
  }

  /// One line for `inspector: error: ...`.
  public var description: String {
    switch self {
    case .sessionExtensionMissing:
      "this SQLite library was built without the session extension (SQLITE_ENABLE_SESSION)"
    case .notAChangeset(let path):
      "\(path) is not a changeset written by 'inspector changes export'"
    case .schemaMismatch(let path, let found, let expected):
      "\(path) is at schema version \(found), the database at \(expected)"
    case .conflicts(let conflicts):
      "\(conflicts.count) conflict(s), nothing applied: "
        + conflicts.prefix(3).map { "\($0.kind): \($0.change)" }.joined(separator: "; ")
        + (conflicts.count > 3 ? "; ..." : "")
    }
  }
}
