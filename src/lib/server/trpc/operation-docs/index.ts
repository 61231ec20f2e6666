/**
 * The long description of each operation, keyed by procedure path (`tools.validateCoil`).
 * They are the docs generator's input, not the procedure's: the OpenAPI document
 * (openapi.ts) and the MCP tool list (mcp-toolset.ts) both read them from here, so a
 * procedure file holds only its schema, its one-line summary and its call into the domain.
 * Each family keeps its own file; a path missing here falls back to the meta's description.
 */
import { AUTONOMY_OPERATION_DOCS } from './autonomy';
import { PARTNERBOT_OPERATION_DOCS } from './partnerbot';
import { STOCKS_OPERATION_DOCS } from './stocks';
import { VAULT_ANALYSIS_OPERATION_DOCS } from './vault-analysis';
import { VAULT_RAIL_OPERATION_DOCS } from './vault-rail';
import { VAULTS_OPERATION_DOCS } from './vaults';
import { X402_OPERATION_DOCS } from './x402';

const OPERATION_DOCS: Readonly<Record<string, string>> = {
  ...STOCKS_OPERATION_DOCS,
  ...VAULTS_OPERATION_DOCS,
  ...PARTNERBOT_OPERATION_DOCS,
  ...AUTONOMY_OPERATION_DOCS,
  ...VAULT_ANALYSIS_OPERATION_DOCS,
  ...VAULT_RAIL_OPERATION_DOCS,
  ...X402_OPERATION_DOCS,
};

/** The long description of the procedure at `procedurePath`, if it has one. */
export function operationDescription(procedurePath: string, metaDescription?: string): string | undefined {
  return OPERATION_DOCS[procedurePath] ?? metaDescription;
}
