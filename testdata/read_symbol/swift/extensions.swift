extension URL: Convertible {
  public static func convert(from value: Any?) throws -> Self {
    fatalError()
  }
}

extension Holder.Slot {
  func reset() {}
}

extension Array where Element == Int {
  func sum() -> Int { reduce(0, +) }
}

extension Dictionary<String, Int> {
  struct Entry {}
}

public extension Swift.Result {
  var isSuccess: Bool { false }
}

extension Never {}
