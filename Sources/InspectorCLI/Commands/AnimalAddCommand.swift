import CaseStore

/// `inspector animal add --name N --species S --paw P [--emoji E] [--fruit F]...`.
struct AnimalAddCommand: InspectorCommand {
  static let spec = CommandSpec(
    name: "add",
    abstract: "Add a suspect.",
    options: [
      .option("name", valueName: "name", help: "The suspect's name.", isRequired: true),
      .option(
        "species", valueName: "species", help: "The species (unique, ignoring case).",
        isRequired: true),
      .option(
        "paw", valueName: "paw", help: "Paw size.", isRequired: true,
        allowedValues: PawSize.allCases.map(\.rawValue)),
      .option("emoji", valueName: "emoji", help: "An emoji for the suspect."),
      .repeatingOption(
        "fruit", valueName: "fruit", help: "A favourite fruit; repeat in order of preference."),
    ])

  static func run(_ context: CommandContext) throws -> String {
    let arguments = context.arguments
    let paw = try PawSize(parsing: arguments.option("paw") ?? "")
    let database = try context.openDatabase(write: true)
    let suspect = try database.suspects.add(
      NewSuspect(
        name: arguments.option("name") ?? "", species: arguments.option("species") ?? "",
        pawSize: paw, emoji: arguments.option("emoji"), favoriteFruits: arguments.options("fruit")))
    return SuspectOutput.render(
      suspect, context,
      message: "Added \(SuspectPresenter.displayName(suspect)) the \(suspect.species)"
        + " (id \(suspect.id)).")
  }
}
