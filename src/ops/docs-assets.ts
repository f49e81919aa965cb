import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The browser files of /docs, each shipped by a package: Redoc's standalone bundle for the API
 * references, GraphiQL's UMD build and React's for the GraphQL schema (docs/adr/0011-api-reference.md).
 * They are development dependencies: `npm run build` copies these files next to the compiled
 * code (dist/docs-assets), so a production install serves them without the packages; a checkout
 * (tests, `ts-node`) serves them from node_modules.
 */
export const DOC_ASSETS: Readonly<Record<string, string>> = {
  'redoc.standalone.js': 'redoc/bundles/redoc.standalone.js',
  'graphiql.min.js': 'graphiql/graphiql.min.js',
  'graphiql.min.css': 'graphiql/graphiql.min.css',
  'react.production.min.js': 'react/umd/react.production.min.js',
  'react-dom.production.min.js': 'react-dom/umd/react-dom.production.min.js',
};

/**
 * Redoc's sidebar credit shows a logo from Redocly's CDN: the copy served here points it at an
 * empty data: image (which the credit hides on error), so that the page asks nothing elsewhere.
 */
const REWRITES: Readonly<Record<string, [string, string][]>> = {
  'redoc.standalone.js': [['https://cdn.redoc.ly/redoc/logo-mini.svg', 'data:,']],
};

/** Our own files, beside this module in the source tree and copied by the build too. */
export const OWN_ASSETS = ['docs.css', 'docs.js', 'graphiql-page.js'];

const BUILT = join(__dirname, '..', 'docs-assets');

/** A file of a package, past its `exports` map (which lists none of these files). */
function packageFile(path: string): string {
  const [scopeOrName, ...rest] = path.split('/');
  const name = scopeOrName.startsWith('@') ? `${scopeOrName}/${rest.shift()}` : scopeOrName;
  return join(dirname(require.resolve(`${name}/package.json`)), ...rest);
}
const OWN = join(__dirname, 'docs-assets');

/** Where a file of /docs/assets is read from, or null when the name is not one of them. */
export function assetFile(name: string): string | null {
  if (OWN_ASSETS.includes(name)) return existsSync(join(OWN, name)) ? join(OWN, name) : join(BUILT, name);
  const packaged = DOC_ASSETS[name];
  if (!packaged) return null;
  const built = join(BUILT, name);
  return existsSync(built) ? built : packageFile(packaged);
}

/** An asset's bytes as served: the package's file, with the rewrites above. */
export function readAsset(name: string): Buffer | null {
  const file = assetFile(name);
  if (!file) return null;
  const rewrites = REWRITES[name];
  if (!rewrites) return readFileSync(file);
  let text = readFileSync(file, 'utf8');
  for (const [from, to] of rewrites) {
    if (!text.includes(from)) throw new Error(`${name}: "${from}" is no longer in the file; review REWRITES in docs-assets.ts`);
    text = text.split(from).join(to);
  }
  return Buffer.from(text);
}

/** The build step (scripts/copy-docs-assets.js): every asset into dist/docs-assets. */
export function copyDocAssets(target: string = BUILT): string[] {
  mkdirSync(target, { recursive: true });
  const copied: string[] = [];
  for (const [name, packaged] of Object.entries(DOC_ASSETS)) {
    copyFileSync(packageFile(packaged), join(target, name));
    copied.push(name);
  }
  const source = join(dirname(dirname(__dirname)), 'src', 'ops', 'docs-assets');
  for (const name of OWN_ASSETS) {
    copyFileSync(join(source, name), join(target, name));
    copied.push(name);
  }
  return copied;
}
