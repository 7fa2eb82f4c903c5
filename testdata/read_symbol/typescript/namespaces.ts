namespace Validation {
  export interface StringValidator {
    isAcceptable(s: string): boolean;
  }

  const lettersRegexp = /^[A-Za-z]+$/;
  export const numberRegexp = /^[0-9]+$/;
  let counter = 0;

  export class LettersOnlyValidator implements StringValidator {
    isAcceptable(s: string) {
      return lettersRegexp.test(s);
    }
  }

  export function check(v: StringValidator): boolean {
    const inner = 1;
    return true;
  }

  export const make = () => new LettersOnlyValidator();
}

namespace Outer.Inner.Deepest {
  export type T = number;
}

module Legacy {
  export enum Mode {
    On,
  }
}

export namespace Nested {
  export namespace Child {
    export function run() {}
  }
}
