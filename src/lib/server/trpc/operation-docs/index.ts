/**
 * The long description of each operation, keyed by procedure path (`tools.validateCoil`).
 * They are the docs generator's input, not the procedure's: the OpenAPI document
 * (openapi.ts) and the MCP tool list (mcp-toolset.ts) both read them from here, so a
 * procedure file holds only its schema, its one-line summary and its call into the domain.
 * Each family keeps its own file; a path missing here falls back to the meta's description.
 */
import { AUTH_DOCS } from './auth';
import { AUTONOMY_DOCS } from './autonomy';
import { ME_DOCS } from './me';
import { PARTNERBOT_DOCS } from './partnerbot';
import { RECEIPT_LOG_DOCS } from './receipt-log';
import { STOCKS_DOCS } from './stocks';
import { STRATEGIST_DOCS } from './strategist';
import { SYSTEM_DOCS } from './system';
import { TOOLS_DOCS } from './tools';
import { VAULT_ANALYSIS_DOCS } from './vault-analysis';
import { VAULT_RAIL_DOCS } from './vault-rail';
import { VAULTS_DOCS } from './vaults';
import { X402_DOCS } from './x402';

const OPERATION_DOCS: Readonly<Record<string, string>> = {
  ...SYSTEM_DOCS,
  ...TOOLS_DOCS,
  ...RECEIPT_LOG_DOCS,
  ...STRATEGIST_DOCS,
  ...STOCKS_DOCS,
  ...VAULTS_DOCS,
  ...PARTNERBOT_DOCS,
  ...AUTONOMY_DOCS,
  ...VAULT_ANALYSIS_DOCS,
  ...VAULT_RAIL_DOCS,
  ...X402_DOCS,
  ...AUTH_DOCS,
  ...ME_DOCS,
};

/** The long description of the procedure at `procedurePath`, if it has one. */
export function operationDescription(procedurePath: string, metaDescription?: string): string | undefined {
  return OPERATION_DOCS[procedurePath] ?? metaDescription;
}
