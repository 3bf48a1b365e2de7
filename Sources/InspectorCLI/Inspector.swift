import CaseStore
import CommandLineKit

/// The `inspector` program: parses a command line, runs the command, and reports the outcome.
///
/// The executable's `main.swift` only forwards to ``run(arguments:environment:stdoutIsTerminal:writeToStandardError:)``
/// and prints the result, so tests can run every command in-process.
public enum Inspector {
  /// The tool's version.
  public static let version = "0.1.0"

  /// What a run produced.
  public struct Outcome: Sendable, Equatable {
    /// The exit status (``ExitCode``, docs/exit-codes.md).
    public var status: Int32
    /// Text for stdout; empty whenever the status is not 0, except for a report that is the
    /// result of a failing command (`check` with faults).
    public var standardOutput: String
    /// Text for stderr: `inspector: error: ...` and an optional hint line, or a usage message.
    public var standardError: String
  }

  /// Runs one command line, collecting stdout in memory (in-process runs and tests).
  ///
  /// - Parameters:
  ///   - arguments: The arguments without the program name.
  ///   - environment: The process environment (`INSPECTOR_DB`, `XDG_DATA_HOME`, `HOME`,
  ///     `NO_COLOR`, `INSPECTOR_BUSY_TIMEOUT_MS`).
  ///   - stdoutIsTerminal: Whether stdout is a terminal (colour, progress).
  ///   - writeToStandardError: Receives live stderr text (progress) during the run.
  /// - Returns: The exit status and the text for stdout and stderr.
  public static func run(
    arguments: [String], environment: [String: String], stdoutIsTerminal: Bool = false,
    writeToStandardError: @escaping @Sendable (String) -> Void = { _ in }
  ) -> Outcome {
    run(
      arguments: arguments, environment: environment, stdoutIsTerminal: stdoutIsTerminal,
      writeToStandardError: writeToStandardError, output: OutputSink())
  }

  /// Runs one command line, writing stdout to `output` as the command produces it.
  ///
  /// A listing streams its rows into `output`; if it then fails, what was written stays written
  /// and the error is reported as usual (docs/output-formats.md "Streaming"). A reader that
  /// closed the pipe ends the run quietly with status 0; any other failure to write stdout is
  /// an I/O error (74).
  ///
  /// - Parameters:
  ///   - arguments: The arguments without the program name.
  ///   - environment: The process environment.
  ///   - stdoutIsTerminal: Whether stdout is a terminal (colour, progress).
  ///   - writeToStandardError: Receives live stderr text (progress) during the run.
  ///   - output: Where stdout goes; it is flushed before this returns.
  ///   - terminalColumns: The terminal's width when stdout is one; help is wrapped to it (to 80
  ///     columns when stdout is not a terminal or the width is unknown).
  /// - Returns: The exit status, the text collected by `output` (empty for a descriptor's
  ///   sink) and the text for stderr.
  public static func run(
    arguments: [String], environment: [String: String], stdoutIsTerminal: Bool,
    writeToStandardError: @escaping @Sendable (String) -> Void, output: OutputSink,
    terminalColumns: Int? = nil
  ) -> Outcome {
    var outcome = execute(
      arguments: arguments, environment: environment, stdoutIsTerminal: stdoutIsTerminal,
      writeToStandardError: writeToStandardError, output: output,
      helpWidth: stdoutIsTerminal
        ? terminalColumns ?? HelpWrapping.defaultWidth
        : HelpWrapping.defaultWidth)
    do {
      try output.flush()
    } catch {
      outcome = failure(writing: error, status: outcome.status)
    }
    outcome.standardOutput = output.collected
    return outcome
  }

  /// Parses and runs the command, writing its stdout to `output`; the stdout of the outcome is
  /// left empty for the caller to fill.
  private static func execute(
    arguments: [String], environment: [String: String], stdoutIsTerminal: Bool,
    writeToStandardError: @escaping @Sendable (String) -> Void, output: OutputSink,
    helpWidth: Int
  ) -> Outcome {
    var parser = ArgumentParser(root: CommandTree.root)
    parser.helpWidth = helpWidth
    // Errors are one JSON line once the command line asks for JSON (docs/exit-codes.md "Errors
    // as JSON"); until it is parsed, the format is not known.
    var jsonErrors = false
    do {
      switch try parser.parse(arguments) {
      case .help(_, let text), .version(let text):
        try output.write(text + "\n")
      case .missingSubcommand(_, let text):
        return Outcome(
          status: ExitCode.usage.rawValue, standardOutput: "", standardError: text + "\n")
      case .run(let parsed):
        jsonErrors = asksForJSON(parsed, parser: parser)
        guard let command = CommandTree.commands[parsed.commandPath] else {
          throw parser.usageError(
            "Unknown command", kind: .unknownCommand, commandPath: parsed.commandPath)
        }
        let instance = command.init()
        let context = try CommandContext(
          arguments: parsed, parser: parser, environment: environment,
          stdoutIsTerminal: stdoutIsTerminal, writeToStandardError: writeToStandardError,
          output: output, declarations: instance.declarations,
          usesDatabase: command.usesDatabase)
        try instance.validate(context)
        try output.write(try instance.run(context))
      }
      return Outcome(status: 0, standardOutput: "", standardError: "")
    } catch let usage as UsageError where !jsonErrors {
      return Outcome(
        status: ExitCode.usage.rawValue, standardOutput: "", standardError: usage.rendered + "\n")
    } catch let error as OutputError {
      return failure(writing: error, status: 0)
    } catch {
      let failure = CommandFailure.from(error)
      var text = "inspector: error: \(TerminalText.oneLine(failure.message))\n"
      if let hint = failure.hint { text += "hint: \(hint)\n" }
      if jsonErrors { text = ErrorPresenter.jsonLine(failure) }
      do {
        try output.write(failure.standardOutput)
      } catch {
        return Self.failure(writing: error, status: failure.exitCode.rawValue)
      }
      return Outcome(
        status: failure.exitCode.rawValue, standardOutput: "", standardError: text)
    }
  }

  /// Whether the parsed command line asks for JSON (`--json`, `--format json` or `ndjson`), so
  /// that its errors go to stderr as one JSON line; a malformed `--format`, or `--json` with
  /// another `--format`, asks for none.
  private static func asksForJSON(_ parsed: ParsedArguments, parser: ArgumentParser) -> Bool {
    guard let values = try? ParsedValues(parsed, declarations: [], parser: parser) else {
      return false
    }
    let global = GlobalOptions()
    switch (values[global.json], try? values[global.format]) {
    case (true, nil), (true, .json?), (false, .json?), (false, .ndjson?): return true
    default: return false
    }
  }

  /// The outcome when stdout could not be written: quiet for a closed pipe (the reader has what
  /// it wanted), else an I/O error (74) unless the run had already failed with its own status.
  private static func failure(writing error: OutputError, status: Int32) -> Outcome {
    if error.isClosedPipe { return Outcome(status: status, standardOutput: "", standardError: "") }
    return Outcome(
      status: status == 0 ? ExitCode.ioError.rawValue : status, standardOutput: "",
      standardError: "inspector: error: \(error)\n")
  }

}
