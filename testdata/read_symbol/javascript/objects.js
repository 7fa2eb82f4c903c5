// Functions of a literal bound to a name are its methods; nested literals and export default {…} list none.
export const api = {
  get(url) {
    return fetch(url);
  },
  post: async (url, body) => fetch(url, { method: "POST", body }),
  nested: {
    deep() {},
  },
};

export default {
  name: "plugin",
  setup(build) {
    function onResolve() {}
    build.onResolve({ filter: /.*/ }, onResolve);
  },
};

Foo.prototype.bar = function () {};
