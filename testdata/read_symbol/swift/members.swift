class Store<Key: Hashable, Value> {
  private var items: [Key: Value] = [:]
  lazy var label: String = { "store" }()

  init() {}

  convenience init?(json: String) {
    self.init()
  }

  required init!(coder: Coder) {}

  deinit {
    items.removeAll()
  }

  subscript(key: Key) -> Value? {
    get { items[key] }
    set { items[key] = newValue }
  }

  subscript<R: RangeExpression>(range: R) -> [Value] where R.Bound == Int {
    []
  }

  static func empty() -> Store { Store() }

  class func named(_ name: String) -> Store { Store() }

  func post(event: String) {}

  func post<Payload>(event: String, payload: Payload?) {}

  var isEmpty: Bool {
    items.isEmpty
  }
}

struct Version: Comparable {
  var major: Int

  static func < (lhs: Version, rhs: Version) -> Bool {
    lhs.major < rhs.major
  }

  static func == (lhs: Version, rhs: Version) -> Bool { lhs.major == rhs.major }

  mutating func bump() {
    major += 1
  }
}

internal prefix func ~ <T>(type: T.Type) -> String {
  "\(type)"
}
