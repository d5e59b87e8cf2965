// The registry this project installs from lacks some platform builds that packages list as optional
// dependencies (msgpackr-extract's darwin/win32 binaries, for one). npm then leaves them out of
// package-lock.json, and `npm ci` refuses the lockfile as out of sync. This adds the missing entries,
// marked optional with the os/cpu their names state, so `npm ci` skips them on every other platform.
// Run it after `npm install` changes the lockfile: `node .ci/complete-lockfile.mjs`.
import fs from 'node:fs';

const lock = JSON.parse(fs.readFileSync('package-lock.json', 'utf8'));
let added = 0;
for (const entry of Object.values(lock.packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const key = `node_modules/${name}`;
    if (lock.packages[key]) continue;
    const m = /-(darwin|linux|win32|android|freebsd)-(arm64|x64|arm|ia32)(-musl)?$/.exec(name);
    if (!m) throw new Error(`cannot tell the platform of ${name}`);
    lock.packages[key] = { version, cpu: [m[2]], optional: true, os: [m[1]] };
    added++;
  }
}
fs.writeFileSync('package-lock.json', `${JSON.stringify(lock, null, 2)}\n`);
console.log(`added ${added} optional platform entries`);
