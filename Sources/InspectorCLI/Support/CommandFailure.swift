import CaseStore
import CommandLineKit

/// An error the CLI reports itself: a one-line message, an optional hint line, an exit code, and
/// what kind of error it is (``Kind``) for the JSON error of `--format json` and the desk's API
/// (docs/exit-codes.md "Errors as JSON").
public struct CommandFailure: Error, Equatable, Sendable {
  /// The text after `inspector: error: `.
  public var message: String
  /// A second line starting `hint: `, when one helps.
  public var hint: String?
  /// The exit status.
  public var exitCode: ExitCode
  /// What stdout still gets: empty for errors, the findings for a `check` that found faults.
  public var standardOutput: String
  /// What kind of error this is: the `kind` of the JSON error (docs/exit-codes.md "Errors as
  /// JSON"); by default the one the exit code means (``Kind/init(exitCode:)``).
  public var kind: Kind
  /// What an ambiguous name matched (`Rénard the Raccoon (id 1)` for a suspect, the fruits'
  /// names for a fruit), as the message lists them; empty for every other error.
  public var candidates: [String]

  /// Creates a failure.
  ///
  /// - Parameters:
  ///   - standardOutput: A report that is the command's result even though it failed
  ///     (`check` lists its findings, then exits 65); empty for every other error.
  ///   - kind: What kind of error it is; `nil` takes the one `exitCode` means.
  ///   - candidates: What an ambiguous name matched.
  public init(
    _ message: String, hint: String? = nil, exitCode: ExitCode, standardOutput: String = "",
    kind: Kind? = nil, candidates: [String] = []
  ) {
    self.message = message
    self.hint = hint
    self.exitCode = exitCode
    self.standardOutput = standardOutput
    self.kind = kind ?? Kind(exitCode: exitCode)
    self.candidates = candidates
  }

  /// Classifies any error thrown by a command (docs/exit-codes.md "Which error gives which
  /// code").
  ///
  /// - Parameter error: A `CommandFailure`, `CaseError`, `CaseFileError`, an error the case
  ///   store classifies as a ``StorageFailure`` (SQLite, migrations, files), or anything else
  ///   (exit 1).
  /// - Returns: The message, hint, exit code, kind and candidates to report.
  public static func from(_ error: any Error) -> CommandFailure {
    var failure = classify(error)
    if let error = error as? CaseError {
      failure.kind = Kind(caseError: error)
      switch error {
      case .ambiguousSuspect(_, let candidates), .ambiguousFruit(_, let candidates):
        failure.candidates = candidates
      default:
        break
      }
    }
    return failure
  }

  /// The message, hint and exit code of any error (the kind the exit code's).
  private static func classify(_ error: any Error) -> CommandFailure {
    switch error {
    case let failure as CommandFailure:
      return failure
    case let usage as UsageError:
      return CommandFailure(usage.message, hint: "Usage: \(usage.usage)", exitCode: .usage)
    case let error as CaseError:
      if case .schemaOutOfDate = error {
        return CommandFailure(
          error.description, hint: "run 'inspector migrate up' to upgrade it",
          exitCode: .dataError)
      }
      if case .invalidStoredValue = error {
        return CommandFailure(
          error.description, hint: "see 'inspector check' for every such value",
          exitCode: .dataError)
      }
      if case .ambiguousFruit = error {
        return CommandFailure(
          error.description,
          hint: "rename all but one with the sqlite3 shell (UPDATE fruits SET name = ..."
            + " WHERE id = N); see 'inspector check'", exitCode: .dataError)
      }
      if case .undoConflict(_, let later) = error, let newest = later.last {
        return CommandFailure(
          error.description,
          hint: "undo the later ones first, newest first ('inspector undo \(newest)');"
            + " see 'inspector history'", exitCode: .dataError)
      }
      if case .undoUnexpectedRow = error {
        return CommandFailure(
          error.description,
          hint: "a write went around the history's triggers; see 'inspector check'",
          exitCode: .dataError)
      }
      if case .ambiguousSuspect = error {
        return CommandFailure(
          error.description, hint: "name one suspect by its id, as id:N", exitCode: .dataError)
      }
      return CommandFailure(error.description, exitCode: .dataError)
    case let error as CaseFileError:
      switch error {
      case .missing, .notADatabase:
        return CommandFailure(error.description, exitCode: .noInput)
      case .holdsCaseData:
        return CommandFailure(
          error.description, hint: "add --force to replace it", exitCode: .dataError)
      case .faulted(let path, _):
        return CommandFailure(
          error.description,
          hint: "'inspector --db \(path) check' lists them; 'inspector restore \(path)"
            + " --accept-faults' restores it as it is", exitCode: .dataError)
      case .damaged, .notACaseDatabase:
        return CommandFailure(error.description, exitCode: .dataError)
      }
    case let error as ChangesError:
      switch error {
      case .sessionExtensionMissing:
        return CommandFailure(error.description, exitCode: .failure)
      case .conflicts(let conflicts, let policy):
        // Under skip or replace only what no policy resolves is refused.
        let hint =
          switch policy {
          case .fail: "add --on-conflict skip or --on-conflict replace to apply the rest"
          case .replace where conflicts.allSatisfy { $0.kind == "referenced" }:
            "add --on-conflict skip to leave those changes out and apply the rest"
          case .skip, .replace:
            "no --on-conflict policy applies these; fix the rows named here first"
          }
        return CommandFailure(error.description, hint: hint, exitCode: .dataError)
      case .notAChangeset, .schemaMismatch, .foreignTables, .tableShape:
        return CommandFailure(error.description, exitCode: .dataError)
      }
    case let error as AdHocQuery.ReadOnlyViolation:
      return CommandFailure(
        error.description, hint: "add --write to change the database", exitCode: .dataError)
    default:
      guard let storage = StorageFailure(error) else {
        return CommandFailure("\(error)", exitCode: .failure)
      }
      return from(storage: storage)
    }
  }

  private static func from(storage error: StorageFailure) -> CommandFailure {
    switch error.kind {
    case .busy:
      return CommandFailure(
        "the database is busy (locked by another process): \(error.message)",
        hint: "try again, or raise --busy-timeout", exitCode: .busy)
    case .notADatabase:
      return CommandFailure("not a database: \(error.message)", exitCode: .noInput)
    case .cannotOpen:
      return CommandFailure("cannot open the database: \(error.message)", exitCode: .noInput)
    case .corrupt:
      return CommandFailure(
        "the database is damaged: \(error.message)", hint: "restore it from a backup",
        exitCode: .dataError)
    case .rejected, .migration:
      return CommandFailure(error.message, exitCode: .dataError)
    case .migrationDrift:
      return CommandFailure(
        error.message,
        hint: "the database records other migrations than this inspector carries;"
          + " see 'inspector migrate status'", exitCode: .dataError)
    case .readOnly:
      return CommandFailure(
        "the database is read-only: \(error.message)",
        hint: "check the permissions of the file and its directory", exitCode: .ioError)
    case .ioError:
      return CommandFailure("I/O error: \(error.message)", exitCode: .ioError)
    case .otherSQLite:
      return CommandFailure(error.message, exitCode: .failure)
    case .outputFile, .fileCreation:
      return CommandFailure(error.message, exitCode: .cannotCreate)
    case .fileOperation:
      return CommandFailure(error.message, exitCode: .ioError)
    }
  }
}
