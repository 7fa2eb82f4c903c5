import { register } from "./registry.js";

@register
export class Queue extends EventTarget {
  static instances = 0;
  #items = [];
  size = 0;

  constructor(limit) {
    super();
    this.limit = limit;
  }

  get length() {
    return this.#items.length;
  }

  set length(value) {}

  static from(items) {
    return new Queue(items.length);
  }

  #drain() {}

  async flush() {}

  *[Symbol.iterator]() {
    yield* this.#items;
  }

  "quoted-name"() {}

  onMessage = (event) => {
    this.push(event.data);
  };

  #onError = function (error) {};

  static {
    Queue.instances = 0;
  }
}

class Empty {}

export default class {
  run() {}
}
