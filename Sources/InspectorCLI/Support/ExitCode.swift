/// The process exit statuses of `inspector` (sysexits, README "A short tour").
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
