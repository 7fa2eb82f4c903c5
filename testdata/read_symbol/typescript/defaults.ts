export default function () {
  function inner() {}
}
