import CaseStore
import CommandLineKit

/// `inspector animal remove <animal>`: delete a suspect with its interview and favourites.
struct AnimalRemoveCommand: WritingCommand {
  static let configuration = CommandConfiguration(
    name: "remove",
    abstract: "Remove a suspect with its interview and favourite fruits.")

  let animal = Argument<String>.animal

  var declarations: [any CommandDeclaration] { [animal] }

  func run(_ context: CommandContext, _ db: CaseWriter) throws -> String {
    let id = try db.suspects.resolve(try context[animal])
    let suspect = try db.suspects.remove(id: id)
    return SuspectOutput.render(suspect, context, after: .removed)
  }
}
