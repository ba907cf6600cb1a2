#!/usr/bin/env node
// The `skills` command of the npm package `skills-rs`: finds the prebuilt binary that npm
// installed from the one optional dependency matching this machine (`@skills-rs/<os>-<cpu>`,
// chosen by npm from its `os`, `cpu` and `libc` fields: no install script, no download) and runs
// it. The binary gets this process's arguments, environment, stdin, stdout and stderr (inherited
// file descriptors, nothing copied through Node); signals sent to this process are passed on; its
// exit code is this process's exit code, and a death by signal is repeated on this process.
// Plain Node (>= 14), no dependencies.
"use strict";

const { spawn } = require("child_process");
const fs = require("fs");
const os = require("os");

// The platforms with a package, as `process.platform-process.arch` (see npm/stage.mjs).
const PLATFORMS = ["linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64", "win32-x64"];
const EXIT_ERROR = 2; // usage, I/O or internal error, as the binary's own

function fail(message, hint) {
  process.stderr.write(`error: ${message}\n` + (hint ? `\nhint: ${hint}\n` : ""));
  process.exit(EXIT_ERROR);
}

// musl (Alpine) or glibc: the Linux packages hold glibc binaries.
function linuxLibc() {
  try {
    if (fs.readdirSync("/lib").some((name) => name.startsWith("ld-musl-"))) return "musl";
  } catch (_) {
    // no /lib: say nothing about the libc
  }
  return "glibc";
}

function platformName() {
  const key = `${process.platform}-${process.arch}`;
  return process.platform === "linux" ? `${key} (${linuxLibc()})` : key;
}

function findBinary() {
  const key = `${process.platform}-${process.arch}`;
  const exe = process.platform === "win32" ? "skills.exe" : "skills";
  const hint =
    "install `skills` another way (docs/install.md: the release archives, `uvx skills-rs`, " +
    "or `cargo install --locked --git https://github.com/skills-rs/skills`)";
  if (!PLATFORMS.includes(key) || (process.platform === "linux" && linuxLibc() === "musl")) {
    fail(
      `skills-rs has no prebuilt binary for this platform: ${platformName()}; there are ` +
        `binaries for ${PLATFORMS.join(", ")} (Linux: glibc 2.17 or later)`,
      hint,
    );
  }
  const pkg = `@skills-rs/${key}`;
  try {
    return require.resolve(`${pkg}/bin/${exe}`);
  } catch (_) {
    fail(
      `the package \`${pkg}\`, which holds the binary for this platform (${platformName()}), ` +
        "is not installed",
      "npm installs it as an optional dependency of skills-rs: reinstall without " +
        "`--omit=optional` / `--no-optional`, or " + hint,
    );
  }
}

const binary = findBinary();
const child = spawn(binary, process.argv.slice(2), { stdio: "inherit" });

// A signal sent to this process (a `kill`, a CI runner's cancel) goes on to the binary, which
// decides; this process waits for it. Ctrl-C in a terminal reaches both already: on Windows the
// console delivers it to the binary, so there it is only kept from ending this process first.
const WINDOWS = process.platform === "win32";
const FORWARDED = WINDOWS ? ["SIGINT", "SIGBREAK"] : ["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT"];
const forwarders = {};
for (const signal of FORWARDED) {
  forwarders[signal] = () => {
    if (WINDOWS) return;
    try {
      child.kill(signal);
    } catch (_) {
      // the binary has already exited
    }
  };
  process.on(signal, forwarders[signal]);
}

child.on("error", (err) => {
  fail(`cannot run \`${binary}\` (${platformName()}): ${err.message}`,
    err.code === "EACCES" ? "the file lost its executable bit: reinstall skills-rs" : undefined);
});

child.on("exit", (code, signal) => {
  if (signal) {
    // Die of the same signal, so that a shell or CI runner sees what the binary saw.
    for (const name of FORWARDED) process.removeListener(name, forwarders[name]);
    try {
      process.kill(process.pid, signal);
    } catch (_) {
      // fall through to the exit code a shell would report
    }
    setTimeout(() => process.exit(128 + (os.constants.signals[signal] || 0)), 100);
    return;
  }
  process.exit(code === null ? EXIT_ERROR : code);
});
