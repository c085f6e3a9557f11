// Node preload for tests: every TCP listen binds 127.0.0.1, then announces its port on stderr.
//
// Usage: node --require ./loopback.cjs <entry.js> ...   (works for CommonJS and ESM entries)
// The host a server asks for is replaced by 127.0.0.1; the port it asks for is kept
// (PORT=0 gives an ephemeral port). Unix-socket / pipe / handle listens are left alone.
// After 'listening' one line "WORKBENCH_LISTENING <port>" is written to stderr.
"use strict";

const net = require("node:net");

const LOOPBACK = "127.0.0.1";
const originalListen = net.Server.prototype.listen;

function isPipeName(value) {
  return typeof value === "string" && !/^\s*\d+\s*$/.test(value);
}

function rewrite(args) {
  const list = Array.from(args);
  let callback;
  if (list.length > 0 && typeof list[list.length - 1] === "function") {
    callback = list.pop();
  }
  const first = list[0];
  let options;
  if (first !== null && typeof first === "object" && !Array.isArray(first)) {
    if (first.path !== undefined || first._handle !== undefined || first.fd !== undefined || first.handle !== undefined) {
      return null; // pipe, unix socket or inherited handle: not a TCP bind
    }
    options = { ...first, host: LOOPBACK, ipv6Only: false };
  } else if (isPipeName(first)) {
    return null;
  } else {
    // listen(), listen(port), listen(port, host), listen(port, host, backlog), listen(port, backlog)
    options = { port: first === undefined || first === null ? 0 : Number(first), host: LOOPBACK };
    const backlog = typeof list[1] === "number" ? list[1] : list[2];
    if (typeof backlog === "number") {
      options.backlog = backlog;
    }
  }
  return callback === undefined ? [options] : [options, callback];
}

net.Server.prototype.listen = function listen(...args) {
  const rewritten = rewrite(args);
  if (rewritten === null) {
    return originalListen.apply(this, args);
  }
  this.once("listening", () => {
    const address = this.address();
    if (address !== null && typeof address === "object") {
      process.stderr.write(`WORKBENCH_LISTENING ${address.port}\n`);
    }
  });
  return originalListen.apply(this, rewritten);
};
