// Part of `npm run build`: copies the browser files of /docs (Redoc, GraphiQL, React, and ours)
// into dist/docs-assets, so that a production install, without development dependencies, serves
// them (src/ops/docs-assets.ts).
const { copyDocAssets } = require('../dist/ops/docs-assets');

console.log(`copied to dist/docs-assets: ${copyDocAssets().join(', ')}`);
