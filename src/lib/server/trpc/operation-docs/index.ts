/**
 * The long description of each operation, keyed by procedure path (`tools.validateCoil`).
 * They are the docs generator's input, not the procedure's: the OpenAPI document
 * (openapi.ts) and the MCP tool list (mcp-toolset.ts) both read them from here, so a
 * procedure file holds only its schema, its one-line summary and its call into the domain.
 * Each family keeps its own file; a path missing here falls back to the meta's description.
 */
const OPERATION_DOCS: Readonly<Record<string, string>> = {};

/** The long description of the procedure at `procedurePath`, if it has one. */
export function operationDescription(procedurePath: string, metaDescription?: string): string | undefined {
  return OPERATION_DOCS[procedurePath] ?? metaDescription;
}
