/// The process exit statuses of `inspector` (sysexits): the one list of codes and their
/// meanings. The manual page's EXIT STATUS is ``allCases`` with ``meaning``, and the first table
/// of docs/exit-codes.md shows the same rows (a test compares them); which error gives which code
/// is docs/exit-codes.md "Which error gives which code".
public enum ExitCode: Int32, Sendable {
  /// Success.
  case success = 0
  /// Anything not covered below.
  case failure = 1
  /// EX_USAGE: the command line is wrong.
  case usage = 64
  /// EX_DATAERR: an invalid value, unknown or ambiguous suspect or fruit, a refused constraint,
  /// or a schema out of date.
  case dataError = 65
  /// EX_NOINPUT: the database or an input file is missing or not a database.
  case noInput = 66
  /// EX_CANTCREAT: an output file cannot be created.
  case cannotCreate = 73
  /// EX_IOERR: reading or writing failed.
  case ioError = 74
  /// EX_TEMPFAIL: the database stayed busy past the busy timeout.
  case busy = 75
  /// 128 + SIGINT: stopped by SIGINT or SIGTERM before finishing (nothing half-written).
  case interrupted = 130
}

extension ExitCode: CaseIterable {
  /// Every code, in the order the manual page and docs/exit-codes.md list them: success, the
  /// sysexits codes in ascending order, the signal, then the catch-all 1.
  public static let allCases: [ExitCode] = [
    .success, .usage, .dataError, .noInput, .cannotCreate, .ioError, .busy, .interrupted,
    .failure,
  ]

  /// What the code means, one sentence, as the manual page and docs/exit-codes.md print it; a
  /// new case does not compile until it is described here.
  public var meaning: String {
    switch self {
    case .success: return "Success."
    case .failure: return "Anything else."
    case .usage:
      return "Usage error: an unknown command or option, a group without a subcommand, a"
        + " missing argument, an invalid option value."
    case .dataError:
      return "Bad data: an invalid value, an unknown or ambiguous suspect or fruit, a refused"
        + " constraint, a schema out of date; also check finding a fault and restore refusing"
        + " its source."
    case .noInput: return "The database or an input file is missing or not a database."
    case .cannotCreate: return "An output file cannot be created."
    case .ioError: return "Reading or writing failed."
    case .busy: return "The database stayed busy past the busy timeout."
    case .interrupted:
      return "Stopped by SIGINT (Ctrl-C) or SIGTERM during a backup; nothing was left"
        + " half-written."
    }
  }
}
