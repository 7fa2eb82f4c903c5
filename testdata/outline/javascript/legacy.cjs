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
