// The literal a named function returns from its body lists its methods
// under the function (reduced from history's createMemoryHistory).
function createMemoryHistory(options = {}) {
  let index = 0;
  return {
    get index() {
      return index;
    },
    push(path) {},
    go(n) {},
    listen: (listener) => () => {},
    entries: [],
  };
}

const createStore = (initial) => ({
  get() {
    return initial;
  },
  set: (value) => {},
});

const factory = function () {
  return {
    build() {},
  };
};

class Client {
  api() {
    return {
      fetch() {},
    };
  }
}

export default function () {
  return {
    install() {},
  };
}

// A literal returned from a nested block, or by an anonymous function, is
// not listed.
function conditional(flag) {
  if (flag) {
    return { early() {} };
  }
  items.map(function () {
    return { fromCallback() {} };
  });
  return null;
}
