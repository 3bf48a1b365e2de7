import CaseStore

/// The `inspector` program: parses a command line, runs the command, and reports the outcome.
///
/// The executable's `main.swift` only forwards to ``run(arguments:environment:stdoutIsTerminal:writeToStandardError:)``
/// and prints the result, so tests can run every command in-process.
public enum Inspector {
  /// The tool's version.
  public static let version = "0.1.0"

  /// What a run produced.
  public struct Outcome: Sendable, Equatable {
    /// The exit status (README "A short tour").
    public var status: Int32
    /// Text for stdout; empty whenever the status is not 0, except for a report that is the
    /// result of a failing command (`check` with faults).
    public var standardOutput: String
    /// Text for stderr: `inspector: error: ...` and an optional hint line, or a usage message.
    public var standardError: String
  }

  /// Runs one command line.
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
    let parser = ArgumentParser(root: CommandTree.root)
    do {
      switch try parser.parse(arguments) {
      case .help(_, let text):
        return Outcome(status: 0, standardOutput: text + "\n", standardError: "")
      case .version(let text):
        return Outcome(status: 0, standardOutput: text + "\n", standardError: "")
      case .run(let parsed):
        guard let command = CommandTree.commands[parsed.commandPath] else {
          throw parser.usageError(
            "Unknown command", kind: .unknownCommand, commandPath: parsed.commandPath)
        }
        let instance = command.init()
        let context = try CommandContext(
          arguments: parsed, parser: parser, environment: environment,
          stdoutIsTerminal: stdoutIsTerminal, writeToStandardError: writeToStandardError,
          declarations: instance.declarations)
        try instance.validate(context)
        let output = try instance.run(context)
        return Outcome(status: 0, standardOutput: output, standardError: "")
      }
    } catch let usage as UsageError {
      return Outcome(
        status: ExitCode.usage.rawValue, standardOutput: "", standardError: usage.rendered + "\n")
    } catch {
      let failure = CommandFailure.from(error)
      var text = "inspector: error: \(oneLine(failure.message))\n"
      if let hint = failure.hint { text += "hint: \(hint)\n" }
      return Outcome(
        status: failure.exitCode.rawValue, standardOutput: failure.standardOutput,
        standardError: text)
    }
  }

  /// The message on one line: line breaks shown as `\n`.
  static func oneLine(_ text: String) -> String {
    text.replacingAll("\r\n", with: "\\n").replacingAll("\n", with: "\\n")
      .replacingAll("\r", with: "\\r")
  }
}
