/// The output formats of README "A short tour".
public enum OutputFormat: String, CaseIterable, Sendable, ExpressibleByArgument {
  /// Aligned text for people (by display width), colour on a terminal.
  case table
  /// JSON for programs: snake_case keys, numbers that read back exactly, `null` for absent.
  case json
  /// RFC 4180 CSV with a header row.
  case csv
}
