/**
 * The long description of each operation, keyed by procedure path (`tools.validateCoil`).
 * They are the docs generator's input, not the procedure's: the OpenAPI document
 * (openapi.ts) and the MCP tool list (mcp-toolset.ts) both read them from here, so a
 * procedure file holds only its schema, its one-line summary and its call into the domain.
 * Each family keeps its own file; a path missing here falls back to the meta's description.
 */
import { AUTH_DOCS } from './auth';
import { ME_DOCS } from './me';
import { RECEIPT_LOG_DOCS } from './receipt-log';
import { STRATEGIST_DOCS } from './strategist';
import { SYSTEM_DOCS } from './system';
import { TOOLS_DOCS } from './tools';

const OPERATION_DOCS: Readonly<Record<string, string>> = {
  ...SYSTEM_DOCS,
  ...TOOLS_DOCS,
  ...RECEIPT_LOG_DOCS,
  ...STRATEGIST_DOCS,
  ...AUTH_DOCS,
  ...ME_DOCS,
};

/** The long description of the procedure at `procedurePath`, if it has one. */
export function operationDescription(procedurePath: string, metaDescription?: string): string | undefined {
  return OPERATION_DOCS[procedurePath] ?? metaDescription;
}
