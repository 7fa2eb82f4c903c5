// The grammar cannot read generic call signatures that follow one another
// without separators when their type parameters are constrained by function
// types; the parse error then swallows the rest of the file, whose root
// becomes an ERROR node. What comes before the error is still listed.
export const before = 1;

export const dual: {
  /**
   * The first form.
   */
  <A extends (...args: Array<any>) => any, B extends (...args: Array<any>) => any>(
    arity: number,
    body: B
  ): A & B
  /**
   * The second form.
   */
  <A extends (...args: Array<any>) => any, B extends (...args: Array<any>) => any>(
    test: (args: IArguments) => boolean,
    body: B
  ): A & B
} = function (arity, body) {
  if (typeof arity === "function") {
    return body;
  }
  return body;
};

export const after = () => 2;

export function later() {}
