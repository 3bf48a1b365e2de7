import HTTPKit

/// The page's own files (HTML, CSS, JavaScript), carried in the binary.
///
/// The files live in `Sources/InspectorCLI/Desk/Assets/` and SwiftPM compiles them into the
/// binary as bytes (`resources: [.embedInCode("Desk/Assets")]` in Package.swift), so the
/// built `inspector` alone serves the page and nothing is read from disk or from another host
/// (docs/web-desk.md "The page").
///
/// Each file is answered with its `Content-Type`, an `ETag` (a hash of its bytes) and
/// `Cache-Control: no-cache`: a browser keeps its copy and asks again with `If-None-Match`,
/// which gets `304 Not Modified` until a new binary serves different bytes.
enum DeskAssets {
  /// One embedded file: its bytes, media type and entity tag.
  struct Asset: Sendable {
    /// The file's bytes as they are in the repository.
    let bytes: [UInt8]
    /// The `Content-Type` it is served with.
    let contentType: String
    /// The quoted entity tag: a 64-bit FNV-1a hash of the bytes in hex, e.g. `"9a3c…"`.
    let etag: String

    /// An asset from its bytes and media type; the tag is computed here.
    init(_ bytes: [UInt8], contentType: String) {
      self.bytes = bytes
      self.contentType = contentType
      self.etag = "\"\(DeskAssets.hash(bytes))\""
    }
  }

  /// The files by the path they are served at. `/` is the page itself.
  static let files: [String: Asset] = {
    let page = Asset(PackageResources.index_html, contentType: "text/html; charset=utf-8")
    return [
      "/": page,
      "/index.html": page,
      "/desk.css": Asset(PackageResources.desk_css, contentType: "text/css; charset=utf-8"),
      "/desk.js": Asset(
        PackageResources.desk_js, contentType: "text/javascript; charset=utf-8"),
    ]
  }()

  /// The file `request` asks for (`GET /` is the page), or `nil` when the path is not one.
  ///
  /// `GET` and `HEAD` get the file (`304` with no body when `If-None-Match` names its tag);
  /// any other method on a file's path gets `405` with `Allow: GET, HEAD`. The query is
  /// ignored, so `/desk.js?v=2` is `/desk.js`.
  static func response(to request: HTTPRequest) -> HTTPResponse? {
    guard let asset = files[request.path] else { return nil }
    guard request.method == "GET" || request.method == "HEAD" else {
      return HTTPResponse(
        status: 405,
        headers: [
          HTTPField("Allow", "GET, HEAD"), HTTPField("Content-Type", "text/plain; charset=utf-8"),
        ],
        body: .bytes(Array("Only GET and HEAD are served here.\n".utf8)))
    }
    var headers = [
      HTTPField("Content-Type", asset.contentType),
      HTTPField("ETag", asset.etag),
      HTTPField("Cache-Control", "no-cache"),
    ]
    if let tags = request.header("If-None-Match"),
      tags.split(separator: ",").contains(where: {
        let tag = $0.trimmingPrefix(" ").trimmingPrefix("W/")
        return tag == asset.etag || tag == "*"
      })
    {
      headers.removeFirst()
      return HTTPResponse(status: 304, headers: headers)
    }
    return HTTPResponse(status: 200, headers: headers, body: .bytes(asset.bytes))
  }

  /// The 64-bit FNV-1a hash of `bytes` as 16 lowercase hex digits.
  static func hash(_ bytes: [UInt8]) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes {
      hash ^= UInt64(byte)
      hash = hash &* 0x0000_0100_0000_01b3
    }
    let digits = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }
}
