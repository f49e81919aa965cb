/**
 * The pages of /docs: one reference each (partner API, TV API, webhooks: Redoc; the studio's
 * GraphQL schema: GraphiQL), under one navigation bar. Pages hold no inline script or style (the
 * CSP allows none); each names its document in a data attribute that docs.js reads.
 */

export interface DocsPage {
  path: string;
  /** Navigation label and page title. */
  title: string;
  /** Redoc pages: the OpenAPI document's URL. */
  spec?: string;
}

export const DOCS_PAGES: readonly DocsPage[] = [
  { path: '/docs', title: 'Partner API', spec: '/api/v1/openapi.json' },
  { path: '/docs/tv', title: 'TV API', spec: '/api/tv/openapi.json' },
  { path: '/docs/webhooks', title: 'Webhooks', spec: '/docs/webhooks.json' },
  { path: '/docs/graphql', title: 'Studio GraphQL' },
];

const escape = (text: string) => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

function nav(current: DocsPage): string {
  const links = DOCS_PAGES.map((p) => `<a href="${p.path}"${p === current ? ' aria-current="page"' : ''}>${escape(p.title)}</a>`);
  return `<header class="docs-nav"><span class="docs-brand">API reference</span><nav aria-label="References">${links.join('')}</nav></header>`;
}

export function renderPage(page: DocsPage): string {
  const graphql = page.spec === undefined;
  const styles = graphql ? ['/docs/assets/graphiql.min.css', '/docs/assets/docs.css'] : ['/docs/assets/docs.css'];
  const scripts = graphql
    ? ['/docs/assets/react.production.min.js', '/docs/assets/react-dom.production.min.js', '/docs/assets/graphiql.min.js', '/docs/assets/graphiql-page.js']
    : ['/docs/assets/redoc.standalone.js', '/docs/assets/docs.js'];
  const main = graphql
    ? '<main id="main" class="graphiql-main" data-schema="/docs/studio-introspection.json" data-endpoint="/graphql"><p class="docs-loading">Loading the studio schema…</p></main>'
    : `<main id="main" data-spec="${escape(page.spec!)}"><p class="docs-loading">Loading the reference…</p></main>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(page.title)}: API reference</title>
<link rel="icon" href="data:,">
${styles.map((href) => `<link rel="stylesheet" href="${href}">`).join('\n')}
</head>
<body class="${graphql ? 'page-graphql' : 'page-reference'}">
<a class="skip-link" href="#main">Skip to the reference</a>
${nav(page)}
${main}
${scripts.map((src) => `<script src="${src}"></script>`).join('\n')}
</body>
</html>
`;
}
