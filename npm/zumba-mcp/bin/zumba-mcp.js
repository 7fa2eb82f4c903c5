#!/usr/bin/env node
// Runs the zumba binary built for this platform. npm installed it with
// this package, as the one optional dependency (zumba-mcp-OS-CPU) whose
// os and cpu match; nothing is downloaded, now or at install time.
// Arguments, standard streams and the exit code pass through unchanged;
// this script never writes to stdout, which carries MCP's messages.
"use strict";

const { spawn } = require("child_process");
const fs = require("fs");
const path = require("path");

const pkg = `zumba-mcp-${process.platform}-${process.arch}`;
const exe = process.platform === "win32" ? "zumba.exe" : "zumba";

function binary() {
  let dir;
  try {
    dir = path.dirname(require.resolve(`${pkg}/package.json`));
  } catch {
    console.error(
      `zumba-mcp: no zumba binary for ${process.platform}-${process.arch}: ` +
        `the package ${pkg} is not installed (npm leaves optional dependencies out ` +
        `with --omit=optional, and zumba ships none for other platforms). ` +
        `Reinstall without that option, or build zumba from source: ` +
        `go install github.com/zumba-dev/zumba/cmd/zumba@latest (Go and a C compiler).`
    );
    process.exit(1);
  }
  const bin = path.join(dir, "bin", exe);
  if (process.platform !== "win32") {
    // A package manager that dropped the executable bit on extraction.
    try {
      fs.accessSync(bin, fs.constants.X_OK);
    } catch {
      try {
        fs.chmodSync(bin, 0o755);
      } catch {}
    }
  }
  return bin;
}

const bin = binary();
const child = spawn(bin, process.argv.slice(2), { stdio: "inherit", windowsHide: true });

// The client stops the server with a signal or by closing stdin; a
// signal is passed on so that zumba finishes as it would alone.
const signals = ["SIGINT", "SIGTERM", "SIGHUP"];
for (const sig of signals) {
  process.on(sig, () => child.kill(sig));
}

child.on("error", (err) => {
  console.error(`zumba-mcp: cannot run ${bin}: ${err.message}`);
  process.exit(1);
});

child.on("exit", (code, signal) => {
  if (signal) {
    for (const sig of signals) process.removeAllListeners(sig);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code === null ? 1 : code);
});
