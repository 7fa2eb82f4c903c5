"use strict";

const path = require("path");

exports.resolve = function resolve(p) {
  return path.resolve(p);
};

exports.join = (a, b) => path.join(a, b);

module.exports.normalize = function (p) {
  return path.normalize(p);
};

exports.VERSION = "1.0.0";
exports.helpers = { trim: (s) => s.trim() };
module.exports.sub.deep = function () {};
other.exports.x = function () {};

function internal() {}

module.exports = internal;
module.exports = function named() {};
module.exports = {
  a: 1,
  b() {},
};
