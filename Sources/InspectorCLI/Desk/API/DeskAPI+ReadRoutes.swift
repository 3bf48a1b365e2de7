import HTTPKit

extension DeskAPI {
  /// The read routes. SKELETON: the api-read helper fills this.
  static let readRoutes: [DeskRoute] = []
}
