import SQLiteKit
import Testing

@testable import CaseStore

@Suite("Editing a fruit")
struct FruitEditTests {
  @Test func renameKeepsTheIdAndFavoritesAndIncidentsFollow() throws {
    let database = try seededDatabase()
    let before = try database.fruits.find("Pink Pearl Apple")
    let renamed = try database.fruits.edit(
      "pink pearl APPLE", FruitEdit(name: "  Rosy Pearl Apple "))
    #expect(renamed == Fruit(id: before.id, name: "Rosy Pearl Apple", color: "pink"))
    #expect(try database.fruits.find("ROSY PEARL APPLE") == renamed)
    #expect(throws: CaseError.unknownFruit("Pink Pearl Apple")) {
      try database.fruits.find("Pink Pearl Apple")
    }
    #expect(
      try database.suspects.find("Crow").favoriteFruits == [
        "Rosy Pearl Apple", "Golden Nectar Plum", "Hauer Pippin Apple",
      ])
    #expect(try database.incidents.find(id: 1).fruit == "Rosy Pearl Apple")
    #expect(try database.rowCount("fruits") == 19)
  }

  @Test func colourAloneChangesOnlyTheColour() throws {
    let database = try seededDatabase()
    let elstar = try database.fruits.edit("Elstar Apple", FruitEdit(color: "Light Green"))
    #expect(elstar.name == "Elstar Apple")
    #expect(elstar.color == "light green")
    let hex = try database.fruits.edit("elstar apple", FruitEdit(color: "#A1b2C3"))
    #expect(
      try database.rows("SELECT name, color FROM fruits WHERE id = ?", [hex.id]) == [
        ["Elstar Apple", "#A1b2C3"]
      ])
  }

  @Test func changingTheLetterCaseOfItsOwnNameIsAllowed() throws {
    let database = try seededDatabase()
    let fruit = try database.fruits.edit("Elstar Apple", FruitEdit(name: "ELSTAR apple"))
    #expect(try database.fruits.find("elstar apple") == fruit)
    #expect(fruit.name == "ELSTAR apple")
  }

  @Test(
    "refuses a name another fruit has, ignoring case",
    arguments: ["golden gem apple", "GOLDEN GEM APPLE", " Golden Gem Apple "])
  func refusesAnotherFruitsName(name: String) throws {
    let database = try seededDatabase()
    let before = try database.fruits.all()
    #expect(throws: CaseError.duplicateFruit(name.trimmingSpaces())) {
      try database.fruits.edit("Elstar Apple", FruitEdit(name: name, color: "green"))
    }
    #expect(try database.fruits.all() == before)
  }

  @Test func accentedNamesAreFoldedLikeAdd() throws {
    let database = try seededDatabase()
    let renamed = try database.fruits.edit("Elstar Apple", FruitEdit(name: "Pomme Étoilée"))
    #expect(try database.fruits.find("POMME ÉTOILÉE") == renamed)
    #expect(try database.fruits.find("pomme e\u{301}toile\u{301}e") == renamed)
    #expect(
      try database.rows("SELECT name_key, name_folded_from FROM fruits WHERE id = ?", [renamed.id])
        == [[.text("pomme étoilée"), .text("Pomme Étoilée")]])
    #expect(throws: CaseError.duplicateFruit("POMME ÉTOILÉE")) {
      try database.fruits.add(name: "POMME ÉTOILÉE", color: "red")
    }
    #expect(throws: CaseError.duplicateFruit("pomme étoilée")) {
      try database.fruits.edit("Golden Gem Apple", FruitEdit(name: "pomme étoilée"))
    }
  }

  @Test func badValuesAndUnknownFruitsChangeNothing() throws {
    let database = try seededDatabase()
    let before = try database.fruits.all()
    expectInvalidValue(
      field: "colour", value: "bluish!", expected: "a colour name such as red, or #RRGGBB"
    ) {
      try database.fruits.edit("Elstar Apple", FruitEdit(name: "Elstar Pippin", color: "bluish!"))
    }
    expectInvalidValue(field: "fruit name", value: "  ", expected: "a non-blank fruit name") {
      try database.fruits.edit("Elstar Apple", FruitEdit(name: "  "))
    }
    #expect(throws: CaseError.unknownFruit("Durian")) {
      try database.fruits.edit("Durian", FruitEdit(color: "red"))
    }
    #expect(try database.fruits.all() == before)
  }
}
