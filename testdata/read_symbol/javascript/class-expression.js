// A class expression bound to a name is a class with its members nested
// (reduced from a bundled @tanstack/query-core build).
var CancelledError = class extends Error {
  constructor(options) {
    super("CancelledError");
    this.revert = options?.revert;
  }
};

let Named = class Inner {
  static create() {
    return new Inner();
  }
  #secret = () => {};
};

function mixin(Base) {
  const Mixed = class extends Base {
    mixed() {}
  };
  return Mixed;
}

// An anonymous class expression is not an entry: its members stay where
// they are.
function withLogging(Base) {
  return class extends Base {
    log() {}
  };
}

const plain = class {};
