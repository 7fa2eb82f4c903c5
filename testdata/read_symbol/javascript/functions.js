"use strict";

function parse(text) {
  const limit = 10;
  function helper(n) {
    return n * limit;
  }
  return helper(text.length);
}

async function load(path) {
  return path;
}

function* counter(start) {
  yield start;
}

async function* lines(src) {
  for await (const s of src) yield s;
}

function
  splitAcrossLines(items) {
  return items;
}

(function () {
  function insideIife() {}
})();

if (typeof window !== "undefined") {
  function browserOnly() {}
}
