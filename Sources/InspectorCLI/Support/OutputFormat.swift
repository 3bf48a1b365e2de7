import CommandLineKit

/// The output formats (docs/output-formats.md).
public enum OutputFormat: String, CaseIterable, Sendable, ExpressibleByArgument {
  /// Aligned text for people (by display width), colour on a terminal.
  case table
  /// JSON for programs: snake_case keys, numbers that read back exactly, `null` for absent.
  case json
  /// NDJSON: one compact JSON object a line, written as each row is read; the format that
  /// streams best for programs (docs/output-formats.md "ndjson").
  case ndjson
  /// RFC 4180 CSV with a header row.
  case csv
}
