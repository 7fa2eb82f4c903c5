import Foundation

public typealias ObjectId = Int
internal typealias Pair = (native: AnyObject, js: AnyObject)
typealias Handler<T> = (T) -> Void

let propertyName = "__object_id__"
internal let allowedCharacters = CharacterSet.alphanumerics
public let maxRetries: Int = 3, minRetries = 1
let (width, height) = (640, 480)
let formatter: DateFormatter = {
  let f = DateFormatter()
  return f
}()
let onChange: (Int) -> Void = { _ in }
var counter = 0

#if os(iOS)
let platformName = "iOS"
#else
let platformName = "other"
#endif

internal func runWithErrorPointer<R>(_ pointer: NSErrorPointer, _ body: () throws -> R) rethrows -> R? {
  let local = 1
  func helper() -> Int {
    return local
  }
  struct Scratch {}
  return try body()
}

func toError(_ error: Error) -> NSError {
  error as NSError
}

public struct Utilities {
  static let shared = Utilities()

  public static func urlFrom(string: String) -> URL? {
    nil
  }
}
