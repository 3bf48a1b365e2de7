import Foundation
import HTTPKit
import Testing

@testable import InspectorCLI

/// The page's files as the desk serves them (docs/web-desk.md "The page"): the HTML with the
/// seed design's words, the CSS and JavaScript with their types and tags, nothing else, and
/// no script the Content-Security-Policy would block.
@Suite struct DeskAssetsTests {
  private func get(_ path: String, headers: [HTTPField] = []) -> HTTPResponse? {
    DeskAssets.response(to: HTTPRequest(method: "GET", path: path, headers: headers))
  }

  private func text(_ response: HTTPResponse?) -> String {
    guard case .bytes(let bytes)? = response?.body else { return "" }
    return String(decoding: bytes, as: UTF8.self)
  }

  @Test func theRootIsThePageWithTheSeedDesignsWords() throws {
    let response = try #require(get("/"))
    #expect(response.status == 200)
    #expect(response.header("Content-Type") == "text/html; charset=utf-8")
    let page = text(response)
    #expect(page.hasPrefix("<!doctype html>"))
    for words in [
      "Toggle Inspector", "Select a suspect to inspect", "Fill out details from the interview",
      "Identity", "Interview", "Paw Size", "Small", "Medium", "Large", "Favourite Fruits", "Alibi",
      "Add Sleep Schedule", "Sleep at", "Awake at", "Suspicion Level", "Fruit Nibble Bulletin",
      "<textarea id=\"field-alibi\" rows=\"4\"", "type=\"range\" min=\"0\" max=\"1\"",
      "<link rel=\"stylesheet\" href=\"/desk.css\">",
      "<script type=\"module\" src=\"/desk.js\"></script>",
    ] {
      #expect(page.contains(words), "the page lacks \(words)")
    }
    #expect(text(get("/index.html")) == page)
  }

  @Test(arguments: [
    ("/desk.css", "text/css; charset=utf-8", ".inspector"),
    ("/desk.js", "text/javascript; charset=utf-8", "/api/suspects"),
  ])
  func theStylesAndScriptHaveTheirTypes(path: String, type: String, contains: String) throws {
    let response = try #require(get(path))
    #expect(response.status == 200)
    #expect(response.header("Content-Type") == type)
    #expect(response.header("Cache-Control") == "no-cache")
    #expect(text(response).contains(contains))
  }

  @Test func aTagThatStillMatchesGets304WithoutABody() throws {
    let first = try #require(get("/desk.js"))
    let tag = try #require(first.header("ETag"))
    #expect(tag.count == 18 && tag.hasPrefix("\"") && tag.hasSuffix("\""))
    let again = try #require(get("/desk.js", headers: [HTTPField("If-None-Match", tag)]))
    #expect(again.status == 304)
    #expect(text(again).isEmpty)
    #expect(again.header("ETag") == tag)
    let stale = try #require(
      get("/desk.js", headers: [HTTPField("if-none-match", "\"0000000000000000\"")]))
    #expect(stale.status == 200)
    #expect(try #require(get("/desk.css")).header("ETag") != tag)
  }

  @Test func theHashIsFNV1a64() {
    #expect(DeskAssets.hash([]) == "cbf29ce484222325")
    #expect(DeskAssets.hash(Array("a".utf8)) == "af63dc4c8601ec8c")
  }

  @Test(arguments: ["/desk.mjs", "/favicon.ico", "/Desk.js", "/api/suspects", "/../Package.swift"])
  func anyOtherPathIsNotAFile(path: String) {
    #expect(get(path) == nil)
  }

  @Test func aWriteToAFileIsRefused() throws {
    let response = try #require(
      DeskAssets.response(to: HTTPRequest(method: "POST", path: "/desk.js")))
    #expect(response.status == 405)
    #expect(response.header("Allow") == "GET, HEAD")
  }

  @Test func thePageHasNoInlineScriptOrStyle() {
    let page = text(get("/"))
    // Every <script> element has a src and nothing between its tags.
    var rest = page[...]
    var scripts = 0
    while let open = rest.range(of: "<script") {
      let tail = rest[open.upperBound...]
      let end = tail.range(of: ">")!
      #expect(tail[..<end.lowerBound].contains("src="), "a <script> without src")
      #expect(tail[end.upperBound...].hasPrefix("</script>"), "a <script> with content")
      scripts += 1
      rest = tail[end.upperBound...]
    }
    #expect(scripts == 1)
    #expect(!page.contains("style="))
    #expect(!page.contains("<style"))
    #expect(!page.contains("javascript:"))
    // No inline event handlers (onclick=, onload=, ...).
    #expect(page.range(of: #"\son[a-z]+\s*="#, options: .regularExpression) == nil)
  }

  @Test func theScriptWritesNoHTMLAndLoadsNothingFromElsewhere() {
    let script = text(get("/desk.js"))
    for forbidden in [
      "innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function",
      "setAttribute(\"style\"", ".cssText",
    ] {
      #expect(!script.contains(forbidden), "desk.js uses \(forbidden)")
    }
    // The only other host named is the map link's, which the page never loads.
    let hosts = script.matches(of: /https?:\/\/[a-z0-9.-]+/).map { String($0.output) }
    #expect(Set(hosts) == ["https://www.openstreetmap.org"])
    #expect(script.contains("textContent"))
    let css = text(get("/desk.css"))
    #expect(!css.contains("@import"))
    #expect(!css.contains("url("))
  }
}
