export namespace Outer {
  /** Inner does things. */
  export class Inner {
    method(): number {
      function helper(): number {
        const value = 41;
        return value + 1;
      }
      return helper();
    }
  }
}
