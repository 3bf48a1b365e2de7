import CaseStore
import CommandLineKit

/// `inspector suspect <animal> LEVEL`: set the suspicion level, LEVEL in [0, 1].
struct SuspectCommand: InspectorCommand {
  static let configuration = CommandConfiguration(
    name: "suspect",
    abstract: "Set a suspect's suspicion level, from 0 (unlikely) to 1 (guilty).")

  let animal = Argument<String>.animal
  /// Checked by the case store (``SuspicionLevel/init(parsing:)``, exit 65), so kept as text.
  let level = Argument<String>(
    "level",
    help: "A number in [0, 1] in plain decimal notation: 0.5, .5 or 1 (dot as decimal,"
      + " no exponent).")

  var declarations: [any CommandDeclaration] { [animal, level] }

  func run(_ context: CommandContext) throws -> String {
    let level = try SuspicionLevel(parsing: try context[self.level])
    let suspect = try context.changeSuspect(try context[animal]) { database, id in
      try database.suspects.setSuspicionLevel(id: id, level)
    }
    return SuspectOutput.render(suspect, context, after: .suspicionLevel)
  }
}
