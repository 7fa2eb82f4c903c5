@available(iOS 15.0, *)
@MainActor
public final class ViewModel: ObservableObject {
  @Published
  var title = ""

  @discardableResult
  @objc(loadWithCompletion:)
  public func load(
    completion: @escaping () -> Void
  ) -> Bool {
    true
  }

  @available(*, deprecated, message: "use load")
  func reload() {}
}

@main
struct App {
  static func main() {}
}

@propertyWrapper
struct Clamped<Value: Comparable> {
  var wrappedValue: Value
}

@freestanding(expression)
public macro stringify<T>(_ value: T) -> (T, String) = #externalMacro(module: "Macros", type: "StringifyMacro")

@objc
public protocol Delegate {
  func didUpdate()
}
