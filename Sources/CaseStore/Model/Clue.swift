/// The clues a suspect is checked against for an incident (docs/ranking.md "With an incident"), in
/// the order they are reported.
public enum Clue: String, CaseIterable, Sendable {
  /// The suspect's paw size equals the incident's clue (checked only when it has one).
  case pawSize = "paw_size"
  /// The nibbled fruit is among the suspect's favourites.
  case favoriteFruit = "favorite_fruit"
  /// The suspect's alibi is empty or only whitespace.
  case noAlibi = "no_alibi"
  /// The suspect was not asleep at the incident's clock time (no schedule counts as awake).
  case awake
}
