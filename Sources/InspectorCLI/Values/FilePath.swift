import CommandLineKit

/// A file path that is not empty, such as `--db`'s: an empty value (`--db "$UNSET"`) must not
/// fall through to a default file.
struct FilePath: ExpressibleByArgument, Equatable {
  /// The path as given.
  let path: String

  init?(argument: String) {
    guard !argument.isEmpty else { return nil }
    path = argument
  }

  static let invalidValueReason: String? = "expected a file path"

  /// Shells complete file names for it.
  static let completion = CompletionKind.file
}
