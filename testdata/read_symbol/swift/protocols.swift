public protocol Chainable: Error, AnyObject {
  associatedtype Cause

  var cause: Cause? { get set }

  init(cause: Cause?)

  func causedBy(_ error: Error?) -> Self

  static func make() -> Self

  func isCausedBy<E: Error>(_ type: E.Type) -> Bool

  subscript(index: Int) -> Cause { get }
}

public extension Chainable {
  func causedBy(_ error: Error?) -> Self {
    return self
  }

  func isCausedBy<E: Error>(_ type: E.Type) -> Bool {
    return false
  }
}

@objc public protocol Subscriber: NSObjectProtocol {
  @objc optional func didFinishLaunching() -> Bool

  @objc(subscriberDidRegister:)
  optional func didRegister(_ token: Data)
}

protocol Empty {}
