#!/usr/bin/env node
// The `hermes-acp` command of the npm package: npm installed exactly one of the optional
// platform packages (each declares its `os` and `cpu`), and this starts the native binary it
// carries with the same arguments and stdio. Editors talk JSON-RPC over that stdio, so nothing
// here ever writes to stdout; problems go to stderr. Signals are passed on and the binary's
// exit status becomes ours.
"use strict";

const { spawn } = require("child_process");

const PLATFORM_PACKAGES = {
  "darwin arm64": "hermes-acp-darwin-arm64",
  "darwin x64": "hermes-acp-darwin-x64",
  "linux arm64": "hermes-acp-linux-arm64",
  "linux x64": "hermes-acp-linux-x64",
  "win32 x64": "hermes-acp-win32-x64",
};

function fail(message) {
  process.stderr.write(`hermes-acp: ${message}\n`);
  process.exit(1);
}

function binaryPath() {
  const platform = `${process.platform} ${process.arch}`;
  const pkg = PLATFORM_PACKAGES[platform];
  if (!pkg) {
    fail(
      `no prebuilt binary for ${platform}. Build it from source instead: ` +
        "cargo install --locked --git https://github.com/hermes-acp/hermes-acp",
    );
  }
  const exe = process.platform === "win32" ? "hermes-acp.exe" : "hermes-acp";
  try {
    return require.resolve(`${pkg}/bin/${exe}`);
  } catch {
    fail(
      `the package ${pkg}, which carries the binary for ${platform}, is not installed. ` +
        "npm skips optional dependencies with --omit=optional or --no-optional; reinstall without it.",
    );
  }
}

const child = spawn(binaryPath(), process.argv.slice(2), { stdio: "inherit", windowsHide: true });

const forwarded = ["SIGINT", "SIGTERM", "SIGHUP"];
for (const signal of forwarded) {
  process.on(signal, () => child.kill(signal));
}

child.on("error", (error) => fail(`could not start the binary: ${error.message}`));
child.on("exit", (code, signal) => {
  if (signal) {
    // Die of the same signal, so the caller sees what the binary saw.
    for (const s of forwarded) process.removeAllListeners(s);
    process.kill(process.pid, signal);
  }
  process.exit(code === null ? 1 : code);
});
