#!/usr/bin/env node
// Stages the npm packages of a release into OUT_DIR, ready for `npm pack` / `npm publish`:
//   OUT_DIR/skills-rs/            the main package (npm/skills-rs as committed)
//   OUT_DIR/<os>-<cpu>/           one package per release archive given, `@skills-rs/<os>-<cpu>`,
//                                 holding the binary and the licences from that archive
//
//   node npm/stage.mjs OUT_DIR [TARGET=EXTRACTED_ARCHIVE_DIR ...]
//
// The platform packages carry `os`, `cpu` (and `libc` on Linux) so that npm installs only the
// one that fits, as an optional dependency of skills-rs (the way esbuild and biome ship). Every
// version must equal Cargo.toml's, and the main package's optionalDependencies must name every
// platform of TARGETS at that version: a mismatch stops here, not after publishing.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

// Rust target -> npm platform package. The launcher (skills-rs/bin/skills.js) names the same set.
export const TARGETS = {
  "x86_64-unknown-linux-gnu": { os: "linux", cpu: "x64", libc: "glibc", label: "Linux x64 (glibc 2.17 or later)" },
  "aarch64-unknown-linux-gnu": { os: "linux", cpu: "arm64", libc: "glibc", label: "Linux arm64 (glibc 2.17 or later)" },
  "x86_64-apple-darwin": { os: "darwin", cpu: "x64", label: "macOS x64" },
  "aarch64-apple-darwin": { os: "darwin", cpu: "arm64", label: "macOS arm64" },
  "x86_64-pc-windows-msvc": { os: "win32", cpu: "x64", label: "Windows x64" },
};

function die(message) {
  process.stderr.write(`error: ${message}\n`);
  process.exit(2);
}

function cargoVersion() {
  const manifest = fs.readFileSync(path.join(ROOT, "Cargo.toml"), "utf8");
  const pkg = manifest.split(/^\[/m).find((section) => section.startsWith("package]"));
  const version = pkg && pkg.match(/^version\s*=\s*"([^"]+)"/m);
  if (!version) die("no version in the [package] section of `Cargo.toml`");
  return version[1];
}

function writeJson(file, value) {
  fs.writeFileSync(file, JSON.stringify(value, null, 2) + "\n");
}

function main() {
  const [out, ...pairs] = process.argv.slice(2);
  if (!out) die("usage: node npm/stage.mjs OUT_DIR [TARGET=EXTRACTED_ARCHIVE_DIR ...]");
  const version = cargoVersion();
  const main = JSON.parse(fs.readFileSync(path.join(ROOT, "npm/skills-rs/package.json"), "utf8"));
  if (main.version !== version) die(`npm/skills-rs is at ${main.version}, Cargo.toml at ${version}`);
  const expected = Object.values(TARGETS).map((t) => `@skills-rs/${t.os}-${t.cpu}`).sort();
  const optional = main.optionalDependencies || {};
  if (JSON.stringify(Object.keys(optional).sort()) !== JSON.stringify(expected)) {
    die(`npm/skills-rs's optionalDependencies must be exactly ${expected.join(", ")}`);
  }
  for (const [name, range] of Object.entries(optional)) {
    if (range !== version) die(`npm/skills-rs depends on ${name}@${range}, not ${version}`);
  }
  fs.mkdirSync(out, { recursive: true });
  fs.cpSync(path.join(ROOT, "npm/skills-rs"), path.join(out, "skills-rs"), { recursive: true });
  console.log(path.join(out, "skills-rs"));

  for (const pair of pairs) {
    const [target, dir] = pair.split(/=(.*)/s);
    const platform = TARGETS[target];
    if (!platform || !dir) die(`\`${pair}\` is not TARGET=DIR with a target of ${Object.keys(TARGETS).join(", ")}`);
    const exe = platform.os === "win32" ? "skills.exe" : "skills";
    const short = `${platform.os}-${platform.cpu}`;
    const pkgDir = path.join(out, short);
    fs.rmSync(pkgDir, { recursive: true, force: true });
    fs.mkdirSync(path.join(pkgDir, "bin"), { recursive: true });
    fs.copyFileSync(path.join(dir, exe), path.join(pkgDir, "bin", exe));
    fs.chmodSync(path.join(pkgDir, "bin", exe), 0o755);
    const licences = ["LICENSE-MIT", "LICENSE-APACHE", "THIRD-PARTY-LICENSES.txt"];
    for (const file of licences) fs.copyFileSync(path.join(dir, file), path.join(pkgDir, file));
    fs.writeFileSync(
      path.join(pkgDir, "README.md"),
      `# @skills-rs/${short}\n\nThe \`skills\` binary for ${platform.label}. Install ` +
        "[`skills-rs`](https://www.npmjs.com/package/skills-rs) instead: it depends on this " +
        "package on the platforms where it fits and runs the binary.\n",
    );
    writeJson(path.join(pkgDir, "package.json"), {
      name: `@skills-rs/${short}`,
      version,
      description: `The skills binary for ${platform.label}, installed by skills-rs`,
      license: main.license,
      repository: main.repository,
      os: [platform.os],
      cpu: [platform.cpu],
      ...(platform.libc ? { libc: [platform.libc] } : {}),
      files: [`bin/${exe}`, ...licences],
      preferUnplugged: true,
    });
    console.log(pkgDir);
  }
}

main();
