import { readFile } from "node:fs/promises";

export function parse(text: string): number {
  const limit = 10;
  function helper(n: number): number {
    return n * limit;
  }
  return helper(text.length);
}

export async function load(path: string): Promise<string> {
  return readFile(path, "utf8");
}

function* counter(start: number): Generator<number> {
  yield start;
}

export async function* lines(src: AsyncIterable<string>) {
  for await (const s of src) yield s;
}

// Overload signatures are entries of their own, each on its line.
export function pick(x: string): string;
export function pick(x: number): number;
export function pick(x: unknown): unknown {
  return x;
}

function
  splitAcrossLines<T>(
    items: T[],
  ): T[] {
  return items;
}

(function iife() {
  function insideIife() {}
})();

describe("parse", () => {
  function fixture() {}
  const local = () => {};
});
