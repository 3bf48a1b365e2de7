import CommandLineKit

/// `inspector manual`: prints the manual page (roff) generated from the command tree
/// (``ManualPage``); `man -l` renders it.
struct ManualCommand: InspectorCommand {
  static let configuration = CommandConfiguration(
    name: "manual",
    abstract: "Print the manual page (roff) of inspector.",
    discussion: """
      Read it with: inspector manual | man -l - (scripts/install.sh installs it, so that
      man inspector finds it).
      """)
  static let usesDatabase = false

  var declarations: [any CommandDeclaration] { [] }

  func run(_ context: CommandContext) throws -> String {
    InspectorManual.page.roff
  }
}
