export default function () {
  return 1;
}

export function* ids() {
  yield 1;
}

export const options = Object.freeze({ strict: true });
