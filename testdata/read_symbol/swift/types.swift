import Foundation

public final class TypedBuffer<Element: Numeric>: Buffer {
  let count: Int

  init(count: Int) {
    self.count = count
  }
}

struct Point: Hashable {
  var x = 0
  var y = 0
}

enum Direction: String, CaseIterable {
  case north, south
  case east = "E"

  var opposite: Direction { self }

  func turned() -> Direction {
    return self
  }
}

indirect enum Tree<Value> {
  case leaf(Value)
  case node(Tree, Tree)
}

actor Counter {
  private var value = 0

  func increment() -> Int {
    value += 1
    return value
  }
}

public final class Holder {
  struct Slot {
    enum State {
      case empty
    }
  }

  internal class NotFound: GenericException<(name: String, module: String)> {
    override var reason: String { "not found" }
  }
}
