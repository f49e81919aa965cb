// The studio's GraphQL schema in GraphiQL (src/ops/docs-pages.ts). Introspection is off in
// production, so the schema comes from the SDL the service ships (served as an introspection
// result); queries go to /graphql with the session token put in the Headers tab.
(() => {
  var main = document.getElementById('main');
  var DEFAULT_QUERY = [
    "# The broadcast studio's GraphQL API. Browse the schema in the Docs panel (left).",
    '#',
    '# 1. Sign in as a demo user (owner@demo.tv, manager@, editor@, viewer@) and copy the token:',
    'mutation SignIn {',
    '  login(email: "owner@demo.tv", password: "demo-owner-pass") { token expiresAt }',
    '}',
    '',
    '# 2. In Headers (below), send it as { "Authorization": "Bearer st_..." }, then run:',
    'query MyChannels {',
    '  viewer { email channels { slug name plan billingState liveSlots { used total } } }',
    '}',
    '',
  ].join('\n');

  fetch(main.getAttribute('data-schema'))
    .then((res) => {
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      return res.json();
    })
    .then((introspection) => {
      main.textContent = '';
      window.ReactDOM.createRoot(main).render(
        window.React.createElement(window.GraphiQL, {
          fetcher: window.GraphiQL.createFetcher({ url: main.getAttribute('data-endpoint') }),
          schema: introspection,
          defaultQuery: DEFAULT_QUERY,
          shouldPersistHeaders: false,
          visiblePlugin: 'Documentation Explorer',
        }),
      );
    })
    .catch((error) => {
      main.textContent = `The studio schema could not be loaded: ${error.message}`;
    });
})();
