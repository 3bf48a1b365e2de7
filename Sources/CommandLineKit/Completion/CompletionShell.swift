/// The shells `inspector completions` writes a script for.
public enum CompletionShell: String, CaseIterable, Sendable, ExpressibleByArgument {
  /// Bash 3.2 or later (with or without the bash-completion package).
  case bash
  /// Zsh with its completion system (`compinit`).
  case zsh
  /// Fish 3 or later.
  case fish
}
