// Names bound to functions are listed at any depth, nested under the
// enclosing definition (reduced from @tanstack/query-core's retryer).
function createRetryer(config) {
  let isRetryCancelled = false;
  let continueFn;

  const cancel = (cancelOptions) => {
    if (!isResolved) {
      reject(new CancelledError(cancelOptions));
    }
  };
  const resolve = (value) => {
    isResolved = true;
  };
  var legacy = function () {
    function deeper() {}
    const deepest = function* () {};
  };
  let later;
  later = () => {};
  const { a, b } = config;
  const count = 3;
  for (const each = () => {}; ; ) break;
  if (config.retry) {
    const inBlock = async () => {};
  }
  return { cancel };
}

class Queue {
  run() {
    const step = () => {};
    return step;
  }
  handler = () => {
    const inner = () => {};
  };
}

describe("anonymous callbacks", () => {
  const fixture = () => {};
});
