import HTTPKit

extension DeskAPI {
  /// The write routes. SKELETON: the api-write helper fills this.
  static let writeRoutes: [DeskRoute] = []
}
