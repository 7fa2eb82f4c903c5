export interface Repository<T> extends Iterable<T> {
  readonly size: number;
  get(id: string): T | undefined;
  set(id: string, value: T): this;
  delete?(id: string): boolean;
  onChange: (id: string) => void;
  new (seed: T[]): Repository<T>;
  (id: string): T;
  [key: string]: unknown;
  get first(): T;
  "quoted-method"(): void;
}

interface Empty {}

export type Id = string | number;

export type Handler<E> = (event: E) => void;

// Members of an object type are not entries.
type Options = {
  verbose: boolean;
  log(message: string): void;
};

export type Mapped<T> = {
  [K in keyof T]: T[K];
};

interface Merged {
  a(): void;
}
interface Merged {
  b(): void;
}
