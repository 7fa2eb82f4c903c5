import fs = require("fs");
const os = require("os");
const Emitter = require("events").EventEmitter;
const notRequire = load("x");

export = Loader;

class Loader {
  load(path: string) {
    return fs.readFileSync(path);
  }
}

namespace Loader {
  export const cache = new Map<string, Buffer>();
}

export default () => {};
