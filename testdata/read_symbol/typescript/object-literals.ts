// Object literals bound to a name list their functions as methods, also
// through satisfies and as.
export const handlers = {
  onClick(event: MouseEvent): void {},
  onKey: (event: KeyboardEvent) => {},
  label: "handlers",
} satisfies Handlers;

const routes = {
  home: () => "/",
  get about(): string {
    return "/about";
  },
} as const satisfies Record<string, unknown>;

let api = {
  fetch: async <T>(url: string): Promise<T> => get<T>(url),
} as Api;

const frozen = { retries: 3 } as const;

namespace Plugins {
  export const plugin = {
    setup(build: Build) {},
  };
}

function createRetryer<T>(config: RetryerConfig<T>): Retryer<T> {
  const cancel = (options?: CancelOptions): void => {};
  const retry = function (): void {};
  return {
    cancel,
    continue(): Promise<unknown> {
      return Promise.resolve();
    },
    cancelRetry: () => {},
  } satisfies Retryer<T>;
}

const createHistory = (): History =>
  ({
    push(path: string) {},
  }) as History;

var CancelledError = class extends Error {
  revert?: boolean;
  constructor(options?: CancelOptions) {
    super("CancelledError");
  }
};
