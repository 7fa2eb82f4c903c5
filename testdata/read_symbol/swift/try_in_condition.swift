/**
 The registry of all shared objects used in the app.
 */
public final class Registry {
  /**
   Weak reference to the app context for the registry.
   */
  private weak var appContext: AppContext?

  internal init(appContext: AppContext) {
    self.appContext = appContext
  }

  /**
   Adds an object; `if let … = try? …. {` once read its body as a closure.
   */
  internal func add(_ object: SharedObject) -> Int {
    if let runtime = try? appContext?.runtime {
      runtime.retain(object)
    }
    while let next = try! queue.next {
      next.run()
    }
    guard let value = await object.value else {
      return 0
    }
    return value.id
  }

  internal func clear(try attempts: Int) async throws {
    let stored = try await store.load()
    if let cached = try cache.lookup {
      try await cached.drop()
    }
  }
}

func topLevel() {}
