/// What a command is called and how its help reads; its options and arguments come from its
/// typed declarations.
public struct CommandConfiguration: Sendable {
  /// The word typed to select the command ("add").
  public var name: String
  /// One sentence, shown after `OVERVIEW:` and in the parent's `SUBCOMMANDS:`.
  public var abstract: String
  /// Optional paragraphs shown in help after the overview.
  public var discussion: String?

  /// Creates a configuration.
  ///
  /// - Parameters:
  ///   - name: The command word.
  ///   - abstract: One-sentence summary.
  ///   - discussion: Optional longer help text.
  public init(name: String, abstract: String, discussion: String? = nil) {
    self.name = name
    self.abstract = abstract
    self.discussion = discussion
  }
}
