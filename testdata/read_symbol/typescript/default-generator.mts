export default async function* () {
  yield 1;
}

export const arrowDefault = 1;
