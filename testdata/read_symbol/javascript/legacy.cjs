var EventEmitter = require("events").EventEmitter;

var util = module.exports = {};

function Server(options) {
  if (!(this instanceof Server)) return new Server(options);
  EventEmitter.call(this);
}

Server.prototype.listen = function listen(port) {
  return this;
};

var createServer = function (options) {
  return new Server(options);
};

exports.createServer = createServer;
exports.Server = Server;

var app = exports = module.exports = {};

app.use = function use(fn) {
  return this;
};

app.settings.env = function () {};

window.onload = () => {};

Server.prototype.close = async function () {};
