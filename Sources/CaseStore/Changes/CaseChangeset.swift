import Foundation
import SQLiteKit

/// A changeset file (docs/changes.md): one header line, `fruit-inspectors changeset 1 schema N`
/// (N: the schema version both sides were at), then SQLite's changeset bytes as the session
/// extension writes them, in base64 lines of 76 characters, so the file is text that a shell
/// redirection, a terminal or a mail can carry.
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

  /// The file's text: the header line, then the changeset in base64 lines.
  public var fileText: String {
    let encoded = Data(changeset.bytes).base64EncodedString(options: [.lineLength76Characters])
    return Self.magic + "\(schemaVersion)\n" + encoded + (encoded.isEmpty ? "" : "\n")
  }

  /// Reads a changeset file.
  ///
  /// - Parameters:
  ///   - fileBytes: The whole file.
  ///   - path: The file's name, for errors.
  /// - Throws: ``ChangesError/notAChangeset(_:)`` when the header is missing or the changeset
  ///   does not decode.
  public init(fileBytes: [UInt8], path: String) throws {
    let magic = Array(Self.magic.utf8)
    guard fileBytes.count > magic.count, Array(fileBytes.prefix(magic.count)) == magic,
      let end = fileBytes[magic.count...].firstIndex(of: UInt8(ascii: "\n")),
      let version = Int(String(decoding: fileBytes[magic.count..<end], as: UTF8.self)),
      let decoded = Data(
        base64Encoded: Data(fileBytes[(end + 1)...]), options: [.ignoreUnknownCharacters])
    else { throw ChangesError.notAChangeset(path) }
    schemaVersion = version
    changeset = Changeset(bytes: [UInt8](decoded))
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
  /// Applying met conflicts that the policy does not resolve (any under
  /// ``ChangesetConflictPolicy/fail``; a `foreign-key` or `referenced` one under any policy);
  /// nothing was applied. Each entry: the conflict's kind and the change in words; then the
  /// policy that was given.
  case conflicts([(kind: String, change: String)], policy: ChangesetConflictPolicy)
  /// The changeset changes tables that are not the documented case tables (the history's,
  /// the search index's, another tool's), named in the order they come; nothing was applied.
  case foreignTables(String, tables: [String])
  /// The changeset's changes to a case table have another number of columns or another
  /// primary key than the database's table; nothing was applied.
  case tableShape(String, table: String, found: Int, expected: Int)

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
    case .foreignTables(let path, let tables):
      "\(path) changes table(s) \(tables.joined(separator: ", ")), which are not case tables;"
        + " a changeset may change only \(CaseDatabase.changeTables.joined(separator: ", "))"
        + " (nothing applied)"
    case .tableShape(let path, let table, let found, let expected):
      "\(path) changes table \(table) with \(found) column(s) or another primary key than the"
        + " database's table (\(expected) column(s)) (nothing applied)"
    case .conflicts(let conflicts, _):
      "\(conflicts.count) conflict(s), nothing applied: "
        + conflicts.prefix(3).map { "\($0.kind): \($0.change)" }.joined(separator: "; ")
        + (conflicts.count > 3 ? "; ..." : "")
    }
  }
}
