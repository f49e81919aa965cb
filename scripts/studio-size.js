// Part of `npm run build`: prints what a browser downloads on the studio's first load (the
// scripts and styles index.html names, and the modules they preload), raw and gzipped as the
// service serves them (level 9, src/ops/kept-file.ts). The goal is under 250 KB of JavaScript
// gzipped (docs/studio.md); over it, this says so loudly but does not fail the build.
const { readFileSync, existsSync } = require('node:fs');
const { join } = require('node:path');
const { gzipSync } = require('node:zlib');

const GOAL_KB = 250;
const dir = join(__dirname, '..', 'dist', 'studio');

function firstLoad() {
  const html = readFileSync(join(dir, 'index.html'), 'utf8');
  const refs = [...html.matchAll(/(?:src|href)="\/studio\/(assets\/[^"]+)"/g)].map((m) => m[1]);
  return [...new Set(refs)].filter((f) => existsSync(join(dir, f)));
}

function measure() {
  const files = firstLoad().map((f) => {
    const body = readFileSync(join(dir, f));
    return { file: f, raw: body.length, gzip: gzipSync(body, { level: 9 }).length };
  });
  const sum = (ext, key) => files.filter((f) => f.file.endsWith(ext)).reduce((n, f) => n + f[key], 0);
  return { files, js: { raw: sum('.js', 'raw'), gzip: sum('.js', 'gzip') }, css: { raw: sum('.css', 'raw'), gzip: sum('.css', 'gzip') } };
}

module.exports = { measure, GOAL_KB };

if (require.main === module) {
  const m = measure();
  const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
  for (const f of m.files) console.log(`  ${f.file.padEnd(40)} ${kb(f.raw).padStart(10)}  gzip ${kb(f.gzip).padStart(9)}`);
  console.log(`studio first load: JavaScript ${kb(m.js.gzip)} gzip (${kb(m.js.raw)} raw), CSS ${kb(m.css.gzip)} gzip; goal < ${GOAL_KB} KB of JavaScript gzip`);
  if (m.js.gzip > GOAL_KB * 1024) console.warn(`WARNING: the studio's first-load JavaScript is over the ${GOAL_KB} KB goal`);
}
