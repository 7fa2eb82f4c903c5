export const MAX_RETRIES = 3;
const timeout: number = 5_000,
  onTimeout = () => {};

export const handler = async (req: Request): Promise<Response> => {
  const local = 1;
  const nestedArrow = () => {};
  function nested() {}
  return new Response();
};

const legacy = function (a: number) {
  return a;
};

const named = function inner() {};

const generator = function* () {};

const { a, b: renamed } = config;
const [first, second] = list;

let mutable = 1;
var old = 2;
let later = () => {};
var callback = function () {};

export const routes = {
  home: () => "/",
  about() {
    return "/about";
  },
};

export const Klass = class {
  method() {}
};

const wrapped = memo(() => null);
const typed = <T>(x: T): T => x;
const asserted = (() => {}) as unknown;

if (process.env.DEBUG) {
  const debugOnly = true;
}

for (const item of [1, 2]) {
  console.log(item);
}
