#!/usr/bin/env node
// The npm registry this project installs from serves only some platforms' prebuilt binaries
// (@swc/core-*, @unrs/resolver-binding-*). npm then writes a lockfile without the others, and
// `npm ci` refuses it ("Missing: @swc/core-darwin-arm64 from lock file"). This adds each missing
// optional platform package as a lockfile entry with its os/cpu/libc, so npm ci skips it on
// other platforms exactly as it would with a complete lockfile. Run after any `npm install`:
//   node scripts/lockfile-platforms.js
const { readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const path = join(__dirname, '..', 'package-lock.json');
const lock = JSON.parse(readFileSync(path, 'utf8'));
const OS = ['darwin', 'linux', 'win32', 'android', 'freebsd', 'openharmony', 'sunos', 'netbsd', 'openbsd', 'aix'];
const CPU = ['arm64', 'x64', 'arm', 'ppc64', 's390x', 'ia32', 'loong64', 'riscv64', 'wasm32', 'mips64el'];

function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  const osIndex = parts.findIndex((p) => OS.includes(p));
  if (osIndex < 0 || !CPU.includes(parts[osIndex + 1])) return null;
  const abi = parts[osIndex + 2] ?? '';
  const out = { os: [parts[osIndex]], cpu: [parts[osIndex + 1]] };
  if (abi.startsWith('gnu')) out.libc = ['glibc'];
  if (abi.startsWith('musl')) out.libc = ['musl'];
  return out;
}

let added = 0;
for (const [key, pkg] of Object.entries(lock.packages)) {
  for (const [dep, range] of Object.entries(pkg.optionalDependencies ?? {})) {
    const at = `node_modules/${dep}`;
    if (lock.packages[at] || lock.packages[`${key}/node_modules/${dep}`]) continue;
    const platform = platformOf(dep);
    if (!platform) continue;
    lock.packages[at] = { version: range.replace(/^[\^~=]/, ''), ...(pkg.dev ? { dev: true } : {}), optional: true, ...platform };
    added++;
  }
}
lock.packages = Object.fromEntries(Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`added ${added} platform entries to package-lock.json`);
