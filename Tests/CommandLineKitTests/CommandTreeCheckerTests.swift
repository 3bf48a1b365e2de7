import Testing

@testable import CommandLineKit

/// The command-tree checker catches every kind of mistake it is meant to, in any tree.
@Suite struct CommandTreeCheckerTests {
  @Test func theCheckerCatchesEveryKindOfMistake() {
    let bad = CommandSpec(
      name: "tool", abstract: "A deliberately broken tree.",
      options: [.option("db", short: "d", help: "Global.")],
      subcommands: [
        CommandSpec(
          name: "leaf", abstract: "",
          arguments: [
            ArgumentSpec("values", help: "Many.", isRepeating: true),
            ArgumentSpec("after", help: ""),
          ],
          options: [
            .option("db", help: "Clashes with the global one."),
            .flag("quiet", short: "d", help: "Clashes with -d."),
            .flag("help", help: "Built in."),
            .flag("loud", help: " "),
          ]),
        CommandSpec(
          name: "group", abstract: "A group.", arguments: [ArgumentSpec("x", help: "X.")],
          subcommands: [CommandSpec(name: "child", abstract: "A child.")]),
        CommandSpec(name: "group", abstract: "Again."),
      ])
    #expect(
      CommandTreeChecker.problems(in: bad) == [
        "tool: subcommand group is declared twice",
        "tool leaf: no abstract",
        "tool leaf: option --db is declared twice",
        "tool leaf: option --help is declared twice",
        "tool leaf: short name -d is declared twice",
        "tool leaf: --loud has no help",
        "tool leaf: <after> follows the repeating <values> and never gets a value",
        "tool leaf: <after> has no help",
        "tool group: a group takes no positionals",
      ])
  }

  @Test func aFileThatCompletesNoFileNamesAndADeclaredHelpAreProblems() {
    let bad = CommandSpec(
      name: "tool", abstract: "Tool.",
      subcommands: [
        CommandSpec(
          name: "load", abstract: "Load.",
          arguments: [
            ArgumentSpec("file", help: "Read this."),
            ArgumentSpec("src", help: "And this.", completion: .file),
          ],
          options: [
            .option("output", valueName: "path", help: "Write here."),
            .option("base", valueName: "path", help: "Compare.", completion: .file),
          ]),
        CommandSpec(name: "help", abstract: "Hides the built-in one."),
      ])
    #expect(
      CommandTreeChecker.problems(in: bad) == [
        "tool: subcommand help is built in",
        "tool load: --output takes a file but completes no file names",
        "tool load: <file> is a file but completes no file names",
      ])
  }

  @Test func anOptionalPositionalBeforeARequiredOneIsAProblem() {
    let bad = CommandSpec(
      name: "tool", abstract: "Tool.",
      arguments: [ArgumentSpec("a", help: "A.", isOptional: true), ArgumentSpec("b", help: "B.")])
    #expect(
      CommandTreeChecker.problems(in: bad) == ["tool: required <b> follows the optional <a>"])
  }
}
