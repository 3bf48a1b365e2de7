import CaseStore

extension CommandFailure {
  /// What kind of error a failure is: the `kind` member of a JSON error, on stderr with
  /// `--format json` or `ndjson` and in the desk's API (docs/exit-codes.md "Errors as JSON",
  /// docs/web-desk.md "Errors"). The exit code stays what docs/exit-codes.md says; the kind
  /// tells apart what one code covers (65 is an invalid value, a name that matches nothing or
  /// several things, or a refusal because of what the case holds).
  public enum Kind: String, CaseIterable, Sendable {
    /// The command line (or a request) is malformed (exit 64; HTTP 400).
    case usage
    /// A value the case store refuses (exit 65; HTTP 422).
    case invalid
    /// A suspect, fruit, incident or change set that nothing matches, or a missing database or
    /// input file (exit 65 or 66; HTTP 404).
    case notFound = "not_found"
    /// A name that matches several suspects or fruits; ``CommandFailure/candidates`` lists them
    /// (exit 65; HTTP 409).
    case ambiguous
    /// Refused because of what the case holds now: an undo or redo that later change sets
    /// stand in the way of, a fruit still in use, an edit whose expected value is stale
    /// (exit 65; HTTP 409).
    case conflict
    /// The database stayed busy past the busy timeout (exit 75; HTTP 503 with `Retry-After`).
    case busy
    /// Nobody is signed in (the desk only; HTTP 401).
    case unauthorized
    /// Not allowed: a read-only desk, a missing CSRF token (the desk only; HTTP 403).
    case forbidden
    /// A request body over the limit (the desk only; HTTP 413).
    case tooLarge = "too_large"
    /// A file cannot be created, read or written (exit 73 or 74; HTTP 500).
    case ioError = "io_error"
    /// Stopped by a signal (exit 130).
    case interrupted
    /// Anything else (exit 1; HTTP 500).
    case `internal`

    /// The kind an exit code means when nothing tells more: 64 usage, 65 invalid, 66
    /// not_found, 73 and 74 io_error, 75 busy, 130 interrupted, 1 internal.
    public init(exitCode: ExitCode) {
      switch exitCode {
      case .usage: self = .usage
      case .dataError: self = .invalid
      case .noInput: self = .notFound
      case .cannotCreate, .ioError: self = .ioError
      case .busy: self = .busy
      case .interrupted: self = .interrupted
      case .success, .failure: self = .internal
      }
    }

    /// The kind of a case-store refusal (all exit 65): unknown names and ids are not_found,
    /// ambiguous names ambiguous, refusals because of what other records hold or the history
    /// says (undo, redo, revert, a fruit in use, a seeded case) conflict, the rest invalid.
    public init(caseError error: CaseError) {
      switch error {
      case .unknownSuspect, .unknownFruit, .unknownIncident, .unknownChangeSet,
        .unknownInvestigator:
        self = .notFound
      case .ambiguousSuspect, .ambiguousFruit:
        self = .ambiguous
      case .undoConflict, .undoUnexpectedRow, .undoBreaksReference, .nothingToUndo,
        .nothingToRedo, .historyDisagrees, .revertRefused, .fruitInUse, .alreadySeeded,
        .duplicateInvestigator:
        self = .conflict
      case .invalidValue, .duplicateSpecies, .duplicateFruit, .alreadyFavorite, .notFavorite,
        .schemaOutOfDate, .invalidStoredValue, .invalidRecord, .unreadableInput,
        .beforeHistory:
        self = .invalid
      }
    }

    /// The HTTP status of an error of this kind in the desk's API (docs/web-desk.md
    /// "Errors"): usage 400, unauthorized 401, forbidden 403, not_found 404, conflict and
    /// ambiguous 409, too_large 413, invalid 422, busy and interrupted 503, io_error and
    /// internal 500.
    public var httpStatus: Int {
      switch self {
      case .usage: 400
      case .unauthorized: 401
      case .forbidden: 403
      case .notFound: 404
      case .conflict, .ambiguous: 409
      case .tooLarge: 413
      case .invalid: 422
      case .busy, .interrupted: 503
      case .ioError, .internal: 500
      }
    }
  }
}
