/// An optional field of a README JSON object: absent values are `null`, never a missing key, both
/// when the model's expectation is encoded and when the product's output is decoded (a missing
/// key is an error, which ``ModelRecords/decode(_:from:keys:)`` reports first by name).
@propertyWrapper
struct NullWhenAbsent<Value: Codable & Equatable>: Codable, Equatable {
  var wrappedValue: Value?

  init(wrappedValue: Value?) {
    self.wrappedValue = wrappedValue
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    wrappedValue = container.decodeNil() ? nil : try container.decode(Value.self)
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    if let wrappedValue {
      try container.encode(wrappedValue)
    } else {
      try container.encodeNil()
    }
  }
}
