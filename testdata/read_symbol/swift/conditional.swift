public class Manager {
  #if os(iOS)
  func iosOnly() {}
  #elseif os(macOS)
  func macOnly() {}
  #else
  func other() {}
  #endif

  func always() {
    #if DEBUG
    print("debug")
    #endif
  }
}

#if canImport(UIKit)
import UIKit

extension UIView {
  func snapshot() {}
}
#endif
