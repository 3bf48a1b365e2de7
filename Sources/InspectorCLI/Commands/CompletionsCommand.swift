import CommandLineKit

/// `inspector completions bash|zsh|fish`: prints a completion script for the shell, generated
/// from the command tree (``CompletionScript``), so completion never falls out of step with the
/// commands.
struct CompletionsCommand: InspectorCommand {
  static let configuration = CommandConfiguration(
    name: "completions",
    abstract: "Print a shell completion script for bash, zsh or fish.",
    discussion: """
      Load it for this session with: source <(inspector completions bash) (zsh: the same, after
      compinit; fish: inspector completions fish | source), or let scripts/install.sh install
      it where each shell looks for completions.
      """)
  static let usesDatabase = false

  let shell = Argument<CompletionShell>("shell", help: "The shell that loads the script.")

  var declarations: [any CommandDeclaration] { [shell] }

  func run(_ context: CommandContext) throws -> String {
    CompletionScript(root: CommandTree.root).script(for: try context[shell])
  }
}
