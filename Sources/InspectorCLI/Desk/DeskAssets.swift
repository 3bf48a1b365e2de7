import HTTPKit

/// The page's own files (HTML, CSS, JavaScript), carried in the binary.
///
/// SKELETON: the page helper replaces this.
enum DeskAssets {
  /// The file `request` asks for (`GET /` is the page), or `nil` when the path is not one.
  static func response(to request: HTTPRequest) -> HTTPResponse? {
    nil
  }
}
