import CaseStore

/// What `history --verify` and `history --head` print (docs/output-formats.md "history
/// --verify, --head"): one flat record each, a JSON object, a CSV row under its header, or one
/// line for people.
enum HistoryChainPresenter {
  /// The newest seal: `change_set` and `seal` (64 hex digits), both null when nothing is
  /// sealed yet; for people `change set N: SEAL`.
  static func render(_ head: HistoryChain.Head?, _ context: CommandContext) -> String {
    Render.fields([("change_set", head?.changeSet), ("seal", head?.seal)], context) {
      guard let head else { return "No change set is sealed yet." }
      return "change set \(head.changeSet): \(head.seal)"
    }
  }

  /// The chain's verdict: `intact`, `verified`, `unsealed`, `head_change_set`, `head_seal`,
  /// `fault_change_set` and `fault` (null when intact); for people the one-line verdict.
  ///
  /// - Returns: The report, when the chain is intact.
  /// - Throws: `CommandFailure` (exit 65, the report on stdout) naming the first fault.
  static func verify(_ verdict: HistoryChain.Verdict, _ context: CommandContext) throws -> String {
    let output = Render.fields(
      [
        ("intact", verdict.fault == nil), ("verified", verdict.verified),
        ("unsealed", verdict.unsealed), ("head_change_set", verdict.head?.changeSet),
        ("head_seal", verdict.head?.seal), ("fault_change_set", verdict.fault?.changeSet),
        ("fault", verdict.fault?.message),
      ], context
    ) { verdict.summary }
    guard let fault = verdict.fault else { return output }
    throw CommandFailure(
      "the history's seals do not verify: \(fault.message)",
      hint: "compare with a backup, or with a head that inspector history --head exported",
      exitCode: .dataError, standardOutput: context.format == .table ? "" : output)
  }
}
