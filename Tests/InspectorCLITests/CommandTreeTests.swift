import CommandLineKit
import Testing

@testable import InspectorCLI

/// The whole command tree of `inspector` is sound, and the checker really catches mistakes.
@Suite struct CommandTreeTests {
  @Test func theRealTreeHasNoProblems() {
    #expect(CommandTreeChecker.problems(in: CommandTree.root) == [])
  }

  @Test func everyLeafIsDispatchableAndEveryCommandIsInTheTree() {
    let leaves = CommandTreeChecker.leafPaths(of: CommandTree.root)
    #expect(Set(leaves) == Set(CommandTree.commands.keys))
    #expect(leaves.count == CommandTree.leaves.count)
  }

  @Test func everyCommandsSpecComesFromItsDeclarations() {
    for (path, command) in CommandTree.leaves {
      let declarations = command.init().declarations
      let spec = command.spec
      #expect(spec.name == path.last, "\(path)")
      #expect(
        declarations.compactMap(\.optionSpec) == spec.options
          && declarations.compactMap(\.argumentSpec) == spec.arguments, "\(path)")
    }
  }

}
