/// What a shell completion offers for an option's or argument's value beyond its
/// allowed values: nothing (free text such as a name, a number or SQL) or file paths.
///
/// The completion scripts of `inspector completions` read it from the command tree, so a
/// value declared as a file path (`--db`, `backup`'s `<dest>`) completes file names in every
/// shell without a list kept by hand.
public enum CompletionKind: Sendable, Equatable {
  /// No suggestions besides the allowed values, if any.
  case none
  /// Paths of files and directories.
  case file
}
