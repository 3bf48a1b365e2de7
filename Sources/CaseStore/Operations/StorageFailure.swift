import SQLiteKit

/// An error from the storage layer under the case store (SQLite, the migrator, backups and file
/// operations), classified so that callers can report it without knowing those types
/// (docs/exit-codes.md "Which error gives which code").
///
/// ```swift
/// if let failure = StorageFailure(error), failure.kind == .busy { ... }
/// ```
public struct StorageFailure: Error, Sendable, Equatable, CustomStringConvertible {
  /// What went wrong, as far as a caller has to tell it apart.
  public enum Kind: Sendable, Equatable {
    /// Another connection holds the lock (SQLite `BUSY` or `LOCKED`).
    case busy
    /// The file is not an SQLite database (SQLite `NOTADB`).
    case notADatabase
    /// The file cannot be opened (SQLite `CANTOPEN`).
    case cannotOpen
    /// The file is damaged (SQLite `CORRUPT`).
    case corrupt
    /// SQLite refused the statement or its values: a constraint, a type mismatch, a parameter
    /// out of range, an SQL error, an authorizer denial or a value that is too big.
    case rejected
    /// The database or its directory cannot be written (SQLite `READONLY`).
    case readOnly
    /// Reading or writing the file failed, or the disk is full (SQLite `IOERR`, `FULL`).
    case ioError
    /// Any other SQLite result code.
    case otherSQLite
    /// The database records migrations this program does not carry.
    case migrationDrift
    /// Any other migration failure (a newer schema, a failing step, an unknown target).
    case migration
    /// An output file refused by the output-file rule (a directory, a device, a database in
    /// use).
    case outputFile
    /// Creating or renaming a file failed.
    case fileCreation
    /// Another file operation (sync, remove, read) failed.
    case fileOperation
  }

  // MARK: - Properties

  /// The classification.
  public let kind: Kind
  /// SQLite's own message for an SQLite error (without the result code), or the error's full
  /// description for the others.
  public let message: String

  // MARK: - Init

  /// Classifies `error`.
  ///
  /// - Parameter error: Any error a case-store call threw.
  /// - Returns: `nil` when `error` does not come from the storage layer (a ``CaseError``,
  ///   ``CaseFileError`` or anything else).
  public init?(_ error: any Error) {
    switch error {
    case let error as SQLiteError:
      self.init(kind: Self.kind(of: error.code), message: error.message)
    case let error as MigrationError:
      if case .drift = error {
        self.init(kind: .migrationDrift, message: error.description)
      } else {
        self.init(kind: .migration, message: error.description)
      }
    case let error as OutputFileError:
      self.init(kind: .outputFile, message: error.description)
    case let error as FileOperationError:
      let creating = error.operation == "create" || error.operation.hasPrefix("rename")
      self.init(kind: creating ? .fileCreation : .fileOperation, message: error.description)
    default:
      return nil
    }
  }

  private init(kind: Kind, message: String) {
    self.kind = kind
    self.message = message
  }

  // MARK: - Public API

  /// The message.
  public var description: String { message }

  // MARK: - Private helpers

  private static func kind(of code: ResultCode) -> Kind {
    switch code {
    case .busy, .locked: .busy
    case .notADatabase: .notADatabase
    case .cannotOpen: .cannotOpen
    case .corrupt: .corrupt
    case .constraint, .mismatch, .range, .error, .authorization, .tooBig: .rejected
    case .readOnly: .readOnly
    case .ioError, .full: .ioError
    default: .otherSQLite
    }
  }
}
