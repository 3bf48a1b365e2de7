import CommandLineKit

extension Argument<String> {
  /// `<animal>`, taken by every command that acts on one suspect.
  static var animal: Self {
    Argument(
      "animal",
      help: "The suspect: its species, name or numeric id (case ignored), or id:N; a word that"
        + " matches several suspects is refused as ambiguous.")
  }

  /// `<fruit>`: a fruit name, ignoring case.
  static var fruit: Self { Argument("fruit", help: "The fruit's name (ignoring case).") }
}
