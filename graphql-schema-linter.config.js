// graphql-schema-linter's rules for the studio schema (schema/studio.graphql), run by `npm test`
// (test/graphql/schema-lint.test.ts) and by `npx graphql-schema-linter` from this folder.
//
// Every built-in rule is kept except these four, left out on purpose:
// - type-fields-sorted-alphabetically, input-object-fields-sorted-alphabetically,
//   interface-fields-sorted-alphabetically: fields are written in the order of their meaning
//   (id, slug, title, ...; a connection's first/after, then last/before) and the SDL prints them
//   so; alphabetical order would scatter what belongs together, and codegen and GraphiQL do not
//   depend on it.
// - enum-values-sorted-alphabetically: an enum keeps the domain's order, which carries meaning
//   (SCHEDULED, LIVE, ENDED, REPLAY is the life of a broadcast; FREE, PRO, BROADCASTER the plans
//   by size).
module.exports = {
  schemaPaths: ['schema/studio.graphql'],
  rules: [
    'arguments-have-descriptions',
    'defined-types-are-used',
    'deprecations-have-a-reason',
    'descriptions-are-capitalized',
    'enum-values-all-caps',
    'enum-values-have-descriptions',
    'fields-are-camel-cased',
    'fields-have-descriptions',
    'input-object-values-are-camel-cased',
    'input-object-values-have-descriptions',
    'relay-connection-arguments-spec',
    'relay-connection-types-spec',
    'relay-page-info-spec',
    'types-are-capitalized',
    'types-have-descriptions',
  ],
};
