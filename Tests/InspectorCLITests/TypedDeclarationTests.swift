import CommandLineKit
import Testing

@testable import InspectorCLI

/// Every command lists each of its declarations once, and a bad value is the usage error it
/// always was.
@Suite struct TypedDeclarationTests {
  @Test func aBadValueIsTheSameUsageErrorAsBefore() {
    let outcome = Inspector.run(
      arguments: ["rank", "--limit", "0", "--db", "/nonexistent/x.sqlite"], environment: [:])
    #expect(outcome.status == 64)
    #expect(
      outcome.standardError.hasPrefix(
        "inspector: error: The value '0' is invalid for '--limit <n>': expected a whole number,"
          + " 1 or more\n"))
  }

  /// The spec, the checks and the typed reads all follow a command's `declarations`: a stored
  /// declaration it forgot to list would be missing from help and from the parser, so it must
  /// list every stored one, once, in the order they are declared.
  @Test func everyCommandListsEachOfItsStoredDeclarationsOnce() {
    for (path, command) in CommandTree.leaves {
      let instance = command.init()
      let stored = Mirror(reflecting: instance).children.compactMap {
        $0.value as? any CommandDeclaration
      }
      #expect(
        instance.declarations.map(\.label) == stored.map(\.label), "\(path.joined(separator: " "))")
    }
  }

  /// A command that reads a value it did not declare gets nothing, not a crash (before, a
  /// `preconditionFailure`).
  @Test func aValueTheCommandDidNotDeclareReadsAsAbsent() throws {
    let parser = ArgumentParser(root: CommandTree.root)
    guard case .run(let parsed) = try parser.parse(["list", "--db", "/nonexistent/x.sqlite"])
    else {
      Issue.record("list did not parse")
      return
    }
    let context = try CommandContext(
      arguments: parsed, parser: parser, environment: [:], stdoutIsTerminal: false,
      writeToStandardError: { _ in }, declarations: ListCommand().declarations)
    #expect(try context[RankCommand().limit] == nil)
    #expect(!context[RankCommand().all])
    #expect(throws: UsageError.self) { try context[ShowCommand().animal] }
  }
}
