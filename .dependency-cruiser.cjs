/**
 * The layering, checked by test/architecture.test.ts (part of `npm test`):
 * doors (rest, tv, graphql, admin) → domain → db; shared HTTP pieces in src/http; the webhook
 * outbox and worker beside the domain, never behind a door.
 */
const DOORS = '^src/(rest|tv|graphql|admin)/';

module.exports = {
  forbidden: [
    {
      name: 'no-door-to-door',
      comment: 'A door (rest, tv, graphql, admin) never imports another door; shared pieces live in src/http, src/lib or the domain.',
      severity: 'error',
      from: { path: '^src/(rest|tv|graphql|admin)/' },
      to: { path: '^src/(rest|tv|graphql|admin)/', pathNot: '^src/$1/' },
    },
    {
      name: 'domain-is-transport-free',
      comment: 'The domain knows no door, no HTTP middleware, no express, GraphQL or Apollo.',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: {
        path: [DOORS, '^src/http/', '^src/container\\.ts$', '^src/app\\.ts$', 'node_modules/(express|graphql|type-graphql|@apollo/)'],
      },
    },
    {
      name: 'graphql-without-container',
      comment:
        'Resolvers get the principal, services and loaders from the GraphQL context, and the router its parts from the composition root: nothing in the door sees the container, the ORM or the database edge.',
      severity: 'error',
      from: { path: '^src/graphql/' },
      to: { path: ['^src/container\\.ts$', '^src/db/', '@mikro-orm/'] },
    },
    {
      name: 'webhooks-behind-no-door',
      comment: 'The outbox and the delivery worker import no door and not the container.',
      severity: 'error',
      from: { path: '^src/webhooks/' },
      to: { path: [DOORS, '^src/http/', '^src/container\\.ts$', '^src/app\\.ts$'] },
    },
    {
      name: 'db-below-the-domain',
      comment:
        'The database edge knows no feature: the entity registry is handed in by the composition root (src/entities.ts), ' +
        'PostgreSQL errors are classified here and worded by the domain (domain/storage-errors.ts). It implements the ' +
        "core's ports (src/ports, apart from the domain), naming them in type-only imports.",
      severity: 'error',
      from: { path: '^src/db/' },
      to: { path: ['^src/(domain|webhooks|demo|rest|tv|graphql|admin|http|ops|startup|bench)/', '^src/[^/]+\\.ts$'] },
    },
    {
      name: 'db-implements-ports-by-type',
      comment: 'The ports are named, never loaded, by the database edge: the arrow between db and the domain points down only.',
      severity: 'error',
      from: { path: '^src/db/' },
      to: { path: '^src/ports/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'config-knows-no-feature',
      comment: 'The configuration is parsed before anything is built: it imports no feature, no door, no HTTP piece and no storage (only src/lib).',
      severity: 'error',
      from: { path: '^src/config/' },
      to: { path: ['^src/(domain|webhooks|demo|rest|tv|graphql|admin|ops|startup|bench|db|http)/', '^src/[^/]+\\.ts$'] },
    },
    {
      name: 'lib-imports-nothing-of-ours',
      comment: 'src/lib holds helpers any layer may use, so it depends on none of them.',
      severity: 'error',
      from: { path: '^src/lib/' },
      to: { path: '^src/', pathNot: '^src/lib/' },
    },
    {
      name: 'no-circular',
      comment: 'No module is part of an import cycle that runs (a cycle of type-only imports vanishes at compile time).',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.test\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    combinedDependencies: false,
  },
};
