type Json = Record<string, any>;

/** A local `$ref` (`#/components/...`) followed to what it names, through chains; `{}` when dangling. */
export function resolveRef(doc: Json, node: Json | undefined): Json {
  let out = node;
  for (let i = 0; out?.$ref && i < 10; i++)
    out = (out.$ref as string)
      .slice(2)
      .split('/')
      .reduce((o: Json, k) => o?.[k.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
  return out ?? {};
}
