import CommandLineKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whether output gets colour, and helpers that wrap text in ANSI SGR codes.
///
/// Colour (docs/command-line.md "Colour") only when the stream is a terminal, `NO_COLOR` is
/// unset or empty (<https://no-color.org>), `TERM` is not `dumb`, and neither `--no-color` nor
/// `--color-output never` was given; `--color-output always` (or `CLICOLOR_FORCE=1`) forces it
/// (for a pager such as `less -R`). When colour is off, every helper returns its
/// text unchanged, so callers style unconditionally. Each helper closes only
/// its own attribute (bold with SGR 22, colours with SGR 39), so styles nest:
/// `style.bold(style.red("x"))`. Measure text with ``displayWidth(of:)-(String)``
/// before styling it; the escape codes have no width but would be counted.
public struct OutputStyle: Sendable, Equatable {
  // MARK: - Properties

  /// `true` when the helpers emit ANSI escape codes.
  public let usesColor: Bool

  // MARK: - Init

  /// Creates a style that uses colour exactly when `usesColor` is `true`.
  ///
  /// - Parameter usesColor: Whether to emit escape codes.
  public init(usesColor: Bool) {
    self.usesColor = usesColor
  }

  /// Decides colour from its inputs, without touching the process (for tests).
  ///
  /// - Parameters:
  ///   - isTerminal: Whether the output stream is a terminal (`isatty`).
  ///   - environment: The process environment; `NO_COLOR` disables colour when present with a
  ///     non-empty value, `TERM=dumb` disables it too.
  ///   - noColorFlag: Whether `--no-color` was given.
  ///   - choice: `--color-output`: ``ColorChoice/always`` and ``ColorChoice/never`` decide alone,
  ///     ``ColorChoice/auto`` (the default) looks at the other inputs.
  public init(
    isTerminal: Bool, environment: [String: String], noColorFlag: Bool,
    choice: ColorChoice = .auto
  ) {
    switch choice {
    case .always: usesColor = true
    case .never: usesColor = false
    case .auto:
      let noColorSet = !(environment["NO_COLOR"] ?? "").isEmpty
      let dumbTerminal = environment["TERM"] == "dumb"
      usesColor = isTerminal && !noColorSet && !dumbTerminal && !noColorFlag
    }
  }

  /// Decides colour for a stream of this process: `isatty(fileDescriptor)` and
  /// the real `NO_COLOR` and `TERM` variables.
  ///
  /// - Parameters:
  ///   - fileDescriptor: 1 for stdout (the default), 2 for stderr.
  ///   - noColorFlag: Whether `--no-color` was given.
  /// - Returns: The style for that stream.
  public static func current(fileDescriptor: Int32 = 1, noColorFlag: Bool) -> OutputStyle {
    var environment: [String: String] = [:]
    for name in ["NO_COLOR", "TERM"] {
      if let value = getenv(name) { environment[name] = String(cString: value) }
    }
    return OutputStyle(
      isTerminal: isTerminal(fileDescriptor: fileDescriptor),
      environment: environment,
      noColorFlag: noColorFlag
    )
  }

  /// Whether a file descriptor refers to a terminal.
  ///
  /// - Parameter fileDescriptor: 0, 1, 2 or any open descriptor.
  /// - Returns: `isatty(fileDescriptor) == 1`; `false` for a pipe, a file or a closed descriptor.
  public static func isTerminal(fileDescriptor: Int32) -> Bool {
    isatty(fileDescriptor) == 1
  }

  // MARK: - Public API

  /// Bold text: SGR 1, closed by SGR 22. Used for table headers.
  public func bold(_ text: String) -> String { wrap(text, "1", "22") }

  /// Red text: SGR 31, closed by SGR 39. Used for high suspicion and errors.
  public func red(_ text: String) -> String { wrap(text, "31", "39") }

  /// Green text: SGR 32, closed by SGR 39. Used for low suspicion.
  public func green(_ text: String) -> String { wrap(text, "32", "39") }

  /// Orange text: 256-colour SGR 38;5;208, closed by SGR 39.
  public func orange(_ text: String) -> String { wrap(text, "38;5;208", "39") }

  /// Mint text: 256-colour SGR 38;5;121, closed by SGR 39.
  public func mint(_ text: String) -> String { wrap(text, "38;5;121", "39") }

  /// Blue text: SGR 34, closed by SGR 39.
  public func blue(_ text: String) -> String { wrap(text, "34", "39") }

  /// Wraps text in an arbitrary SGR attribute when colour is on.
  ///
  /// - Parameters:
  ///   - text: The text; returned unchanged when colour is off or it is empty.
  ///   - code: The SGR parameters, such as "1" or "38;5;208".
  ///   - reset: The SGR parameters that undo `code`, such as "22" or "39"; "0" resets all.
  /// - Returns: `ESC[<code>m` + text + `ESC[<reset>m`, or `text`.
  public func wrap(_ text: String, _ code: String, _ reset: String) -> String {
    guard usesColor, !text.isEmpty else { return text }
    return "\u{1B}[\(code)m\(text)\u{1B}[\(reset)m"
  }
}

/// `--color-output`: when output gets colour (docs/command-line.md "Colour").
public enum ColorChoice: String, Sendable, CaseIterable {
  /// On a terminal, unless `NO_COLOR` is set, `TERM` is `dumb` or `--no-color` was given.
  case auto
  /// Always, even into a pipe (for `less -R`).
  case always
  /// Never (the same as `--no-color`).
  case never

  /// ``always`` when `CLICOLOR_FORCE` is set to anything but `0` or empty (the convention of
  /// BSD `ls` and many tools), else ``auto``.
  public static func fromEnvironment(_ environment: [String: String]) -> ColorChoice {
    let force = environment["CLICOLOR_FORCE"] ?? ""
    return force.isEmpty || force == "0" ? .auto : .always
  }
}
