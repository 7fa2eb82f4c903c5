export default function* () {
  yield 1;
}
