// Class expressions: bound to a name, with a name of their own, anonymous.
export const CancelledError = class extends Error {
  revert?: boolean;
  constructor(options?: CancelOptions) {
    super("CancelledError");
  }
};

let Named = class Inner<T> implements Box<T> {
  get value(): T {
    return this.v;
  }
};

export function mixin<TBase extends Constructor>(Base: TBase) {
  return class Mixed extends Base {
    timestamp = Date.now();
    stamp = (): number => this.timestamp;
  };
}

register(
  class {
    anonymous() {}
  },
);
