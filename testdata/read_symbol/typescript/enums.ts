export enum Color {
  Red,
  Green = "green",
  Blue = 4,
}

const enum Direction {
  Up = 1,
  Down,
}

declare enum Ambient {
  A,
}

export declare const enum Flags {
  None = 0,
}
