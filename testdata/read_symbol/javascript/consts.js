export const MAX_RETRIES = 3;
const timeout = 5000,
  onTimeout = () => {};

export const handler = async (req) => {
  const local = 1;
  const nestedArrow = () => {};
  function nested() {}
  return local;
};

const legacy = function (a) {
  return a;
};

const generator = function* () {};

const { a, b: renamed } = config;
const [first, second] = list;

let mutable = 1;
var old = 2;
let later = () => {};
var callback = function () {};

export const Klass = class {
  method() {}
};

for (const item of [1, 2]) {
  console.log(item);
}
