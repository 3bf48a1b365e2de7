import CommandLineKit

/// The global options of `inspector` (docs/command-line.md "Global options"), accepted before or
/// after the command; ``Resolved`` reads them.
struct GlobalOptions: Sendable {
  /// `--db <path>`.
  let db = Option<FilePath?>(
    "db", valueName: "path",
    help: "The database file (default: $INSPECTOR_DB, else"
      + " $XDG_DATA_HOME/fruit-inspectors/cases.sqlite).")
  /// `--format <format>`.
  let format = Option<OutputFormat?>("format", valueName: "format", help: "Output format.")
  /// `--json`.
  let json = Flag("json", help: "Short for --format json.")
  /// `--no-color`.
  let noColor = Flag(
    "no-color",
    help: "Never colour the output (also off when NO_COLOR is set or TERM is dumb).")
  /// `--color-output auto|always|never` (`--color` is a fruit's colour, as in `fruit add`).
  let color = Option<ColorChoice?>(
    "color-output", valueName: "when",
    help: "When to colour the output: auto (on a terminal; the default), always (for pagers"
      + " such as less -R; also CLICOLOR_FORCE=1), never.")
  /// `--busy-timeout <ms>`.
  let busyTimeout = Option<Milliseconds?>(
    "busy-timeout", valueName: "ms",
    help: "How long a write waits for another writer's lock (default 5000, also"
      + " $INSPECTOR_BUSY_TIMEOUT_MS).")

  /// `--as <name>`: who makes the changes (docs/history.md).
  let actor = Option<String?>(
    "as", valueName: "name",
    help: "Who makes the changes, for the history (default: $INSPECTOR_ACTOR, else the login"
      + " name).")
  /// `--note <text>`: why the changes are made (docs/history.md).
  let note = Option<String?>(
    "note", valueName: "text", help: "Why the changes are made, for the history.")

  /// The option specs, in the order help lists them.
  var specs: [OptionSpec] {
    [
      db.spec, format.spec, json.spec, noColor.spec, color.spec, busyTimeout.spec, actor.spec,
      note.spec,
    ]
  }
}

extension GlobalOptions {
  /// The global options' values for one run, with their environment fallbacks.
  struct Resolved: Sendable {
    /// The chosen output format (`--format`, `--json`; default table).
    let format: OutputFormat
    /// Colour decisions for stdout.
    let style: OutputStyle
    /// Milliseconds to wait for another writer (`--busy-timeout`,
    /// `$INSPECTOR_BUSY_TIMEOUT_MS`, default 5000).
    let busyTimeout: Int
    /// `--db`, if given.
    let db: FilePath?
    /// Who makes the changes.
    let actor: ActorName
    /// `--note`: why the changes are made, for the history (docs/history.md).
    let note: String?

    /// Reads the global options.
    ///
    /// - Parameters:
    ///   - values: The parsed command line.
    ///   - environment: The process environment.
    ///   - stdoutIsTerminal: Whether stdout is a terminal (colour).
    /// - Throws: ``UsageError`` for a malformed value or contradicting options;
    ///   ``CommandFailure`` (exit 64) for a malformed `$INSPECTOR_BUSY_TIMEOUT_MS`.
    init(_ values: ParsedValues, environment: [String: String], stdoutIsTerminal: Bool) throws {
      let global = GlobalOptions()
      let chosenFormat = try values[global.format]
      if values[global.json] {
        if let other = chosenFormat, other != .json {
          throw values.usageError("--json and --format \(other.rawValue) contradict each other")
        }
        format = .json
      } else {
        format = chosenFormat ?? .table
      }
      let noColor = values[global.noColor]
      let color = try values[global.color]
      if noColor, let color, color != .never {
        throw values.usageError(
          "--no-color and --color-output \(color.rawValue) contradict each other")
      }
      style = OutputStyle(
        isTerminal: stdoutIsTerminal, environment: environment, noColorFlag: noColor,
        choice: color ?? (noColor ? .never : ColorChoice.fromEnvironment(environment)))
      if let timeout = try values[global.busyTimeout] {
        busyTimeout = timeout.value
      } else if let timeoutText = environment["INSPECTOR_BUSY_TIMEOUT_MS"] {
        guard let value = Int(timeoutText), value >= 0 else {
          throw CommandFailure(
            "INSPECTOR_BUSY_TIMEOUT_MS is '\(timeoutText)': "
              + (WholeNumber.tooLargeReason(timeoutText)
                ?? "expected a whole number of milliseconds, 0 or more"),
            exitCode: .usage)
        }
        busyTimeout = value
      } else {
        busyTimeout = 5000
      }
      db = try values[global.db]
      actor = ActorName(option: try values[global.actor], environment: environment)
      note = try values[global.note]
    }
  }
}
