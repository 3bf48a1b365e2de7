extension String {
  /// Every occurrence of `target` replaced by `replacement` (no Foundation needed).
  public func replacingAll(_ target: String, with replacement: String) -> String {
    guard !target.isEmpty, contains(target) else { return self }
    return split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
  }
}
