import CommandLineKit
import Testing

@testable import InspectorCLI

/// Each usage error the parser raises carries its kind, so nothing matches message text.
@Suite struct UsageErrorKindTests {
  let parser = ArgumentParser(root: CommandTree.root)

  @Test(
    arguments: [
      (["frobnicate"], UsageError.Kind.unknownCommand),
      (["list", "--frob"], .unknownOption),
      (["animal", "add", "--name"], .missingValue),
      (["list", "--json=yes"], .unexpectedValue),
      (["animal", "add", "--name", "A", "--species", "b", "--paw", "huge"], .invalidValue),
      (["show"], .missingArgument),
      (["list", "x"], .unexpectedArgument),
    ])
  func kinds(arguments: [String], kind: UsageError.Kind) {
    #expect {
      _ = try parser.parse(arguments)
    } throws: { error in
      (error as? UsageError)?.kind == kind
    }
  }

  @Test func helpForAnUnknownCommandIsStillAnError() {
    #expect {
      _ = try parser.parse(["help", "nosuch"])
    } throws: { error in
      (error as? UsageError)?.kind == .unknownCommand
    }
  }
}
