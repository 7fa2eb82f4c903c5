// module.exports = { … } is a module named module.exports holding the
// literal's methods.
"use strict";

function parse(text) {}

module.exports = {
  parse,
  stringify(value) {
    return JSON.stringify(value);
  },
  validate: function validate(value) {},
  version: "1.0.0",
};

// without a function in it, it is not an entry
module.exports = { parse };
