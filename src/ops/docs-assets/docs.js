// Renders the OpenAPI document named by <main data-spec> with Redoc (src/ops/docs-pages.ts).
// A file of its own, not an inline script, so that the page's CSP allows scripts from 'self' only.
(() => {
  var main = document.getElementById('main');
  var spec = main.getAttribute('data-spec');
  var system = '-apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';
  window.Redoc.init(
    spec,
    {
      // The navigation bar stays on top: Redoc scrolls its anchors below it.
      scrollYOffset: '.docs-nav',
      expandResponses: '200,201',
      jsonSampleExpandLevel: 3,
      requiredPropsFirst: true,
      nativeScrollbars: true,
      theme: {
        colors: { primary: { main: '#1f4fd1' } },
        typography: {
          fontFamily: system,
          fontSize: '15px',
          headings: { fontFamily: system, fontWeight: '600' },
          code: { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace' },
        },
        sidebar: { width: '280px' },
        rightPanel: { backgroundColor: '#1e2a3b', width: '42%' },
      },
    },
    main,
    (error) => {
      if (error) main.textContent = `The reference could not be loaded from ${spec}: ${error}`;
    },
  );
})();
