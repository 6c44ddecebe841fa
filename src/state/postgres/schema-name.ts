const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** Why `schema` cannot hold ragwatch's tables (the same rule as `state.schema`'s), or null when it can. */
export function schemaNameProblem(schema: string): string | null {
  if (SCHEMA_NAME.test(schema)) return null;
  return `must be a lower-case schema name (letters, digits, _) (got ${JSON.stringify(schema)})`;
}
