/// Where the case file is (docs/command-line.md "The database path"): `--db`, else
/// `$INSPECTOR_DB` when not empty, else the XDG default.
struct DatabaseLocation: Sendable, Equatable {
  /// The path; empty only for a command that uses no database and found none.
  let path: String
  /// Whether `--db` or `$INSPECTOR_DB` chose the path (otherwise it is the XDG default, whose
  /// directories creating the file may make).
  let isExplicit: Bool

  /// Resolves the path.
  ///
  /// - Parameters:
  ///   - option: `--db`'s value, if given (``FilePath`` refuses an empty one).
  ///   - environment: The process environment.
  ///   - required: Whether the command works on a case file; `completions` and `manual` do
  ///     not, and then work under `env -i`.
  /// - Throws: ``CommandFailure`` (exit 64) when `required` and there is no path at all.
  init(option: FilePath?, environment: [String: String], required: Bool) throws {
    if let option {
      path = option.path
      isExplicit = true
    } else if let path = environment["INSPECTOR_DB"], !path.isEmpty {
      self.path = path
      isExplicit = true
    } else if let path = Self.defaultPath(environment: environment) {
      self.path = path
      isExplicit = false
    } else if !required {
      path = ""
      isExplicit = false
    } else {
      // Without HOME (`env -i`, some cron jobs) the default would land at /.local/share; a
      // relative one would move with the working directory.
      throw CommandFailure(
        Self.noDefaultPathReason(environment: environment),
        hint: "give --db PATH or set INSPECTOR_DB", exitCode: .usage)
    }
  }

  /// `$XDG_DATA_HOME/fruit-inspectors/cases.sqlite` (an absolute XDG_DATA_HOME), else
  /// `$HOME/.local/share/fruit-inspectors/cases.sqlite`; `nil` when HOME is unset or relative.
  static func defaultPath(environment: [String: String]) -> String? {
    let dataHome: String
    if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
      dataHome = xdg
    } else if let home = environment["HOME"], home.hasPrefix("/") {
      dataHome = (home.hasSuffix("/") ? String(home.dropLast()) : home) + "/.local/share"
    } else {
      return nil
    }
    return dataHome + "/fruit-inspectors/cases.sqlite"
  }

  /// Why ``defaultPath(environment:)`` found no path, naming each variable as it is:
  /// `no database path: HOME is relative ('cases') and XDG_DATA_HOME is not set; the default
  /// database needs an absolute path in one of them`. A relative value is ignored, as the XDG
  /// Base Directory spec says of every `XDG_*` variable (docs/command-line.md, "The database
  /// path").
  ///
  /// - Parameter environment: The process environment.
  /// - Returns: One line, without the `inspector: error: ` prefix.
  static func noDefaultPathReason(environment: [String: String]) -> String {
    func state(_ name: String) -> String {
      switch environment[name] {
      case nil: "\(name) is not set"
      case "": "\(name) is empty"
      case let value?: "\(name) is relative ('\(value)')"
      }
    }
    return "no database path: \(state("HOME")) and \(state("XDG_DATA_HOME")); the default"
      + " database needs an absolute path in one of them"
  }
}
