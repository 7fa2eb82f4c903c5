// Members of object literals are not entries.
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
