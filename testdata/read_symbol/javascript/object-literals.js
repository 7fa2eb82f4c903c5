// Methods, accessors and function-valued properties of a literal bound to
// a name are methods nested under it; data properties are not entries.
const EventTarget = {
  addEventListener(type, handler) {},
  removeEventListener(type, handler) {},
  listeners: [],
  get size() {
    return this.listeners.length;
  },
  set size(n) {},
  dispatch: function (event) {},
  onError: (err) => {},
  *entries() {},
  async load() {},
  "quoted-name"() {},
  [Symbol.iterator]() {},
  42: function () {},
  handler,
  nested: {
    notListed() {},
  },
};

// let and var, and bindings inside functions, are listed the same way
// (as const entries: zumba has no variable kind).
var utils = {
  noop() {},
};

function setup() {
  const local = {
    helper() {
      const inner = () => {};
    },
  };
  const data = { a: 1 };
}

// Configuration-sized literals without a function add nothing.
const config = {
  retries: 3,
  timeout: 1000,
  headers: { accept: "json" },
};
let settings = { verbose: true };

// A literal that is not bound lists nothing.
register({
  notListed() {},
});
