/**
 * The MCP toolset as a client sees it in `tools/list`: each tool's definition (name, title,
 * description, input and output JSON Schemas, annotations) derived from the procedure that
 * backs it, and the hash of the whole list. The MCP server (src/mcp/server.ts) serves these
 * definitions and names the hash in its info; `GET /api/mcp/toolset` serves the same hash, so
 * an agent can tell which toolset it talks to before and after connecting.
 *
 * No MCP SDK code runs here (types only): the REST route must not load the SDK, which the API
 * front loads on the first `/mcp` request only.
 */
import { operationDescription } from './operation-docs';
import type { Tool, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { hashCanonical } from '../canonical';
import type { McpToolName } from '../registry/agents';
import type { SvcMeta } from './meta';
import { toolProcedures } from './mcp-tools';

/** The server's `serverInfo` (without the hash, which `mcpServerInfo` adds). */
export const MCP_SERVER_NAME = 'strategy-basket-service';
export const MCP_SERVER_VERSION = '1.0.0';
export { TOOLSET_HASH_META_KEY } from './toolset-hash-key';

type Effect = Required<Pick<ToolAnnotations, 'readOnlyHint' | 'destructiveHint' | 'idempotentHint' | 'openWorldHint'>>;

/** Reads nothing outside, stores nothing. */
const PURE: Effect = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
/**
 * Stores rows (a Coil and its receipt, a plan) and never changes or removes a stored one. The
 * rows are content-addressed (a receipt's id hashes its content and answer time), so the same
 * call again stores nothing more.
 */
const STORES: Effect = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false };
/** Stores nothing; may read chain 4663 (public data, through the operator's RPC). */
const READS_OUTSIDE: Effect = { ...PURE, openWorldHint: true };
/**
 * The Mode A deposit pack: reads the vault's acknowledgment pins on chain 4663, and stores this
 * server's first sight of the pack (a Mode B submission's lifetime counts from it); a later
 * sight of the same pack keeps the first.
 */
const SIGHTS_PACK: Effect = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true };
/**
 * Reconciliation: reads chain 4663 and the partner's status of a job this service submitted,
 * and records what the proof shows by updating the stored receipt or job in place (its status,
 * proof binding, transaction hashes; a stock receipt keeps its history as events), so it is
 * not additive only. The same call again, with nothing new to prove, changes nothing more.
 */
const RECONCILES: Effect = { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true };

/**
 * What each tool does to the world, per the MCP tool annotations: `readOnlyHint` false when a
 * call stores a row (a stored row is a write, even one nobody asked to keep); `destructiveHint`
 * true only when a call may change or remove a row already stored; `idempotentHint` true when
 * the same call again changes nothing more; `openWorldHint` true when a call may read a party
 * outside this service (chain 4663 through the operator's RPC, the partner's job status).
 * No tool places an order, signs, sends a transaction or pays: nothing here can say otherwise.
 * tests/mcp/annotations.test.ts holds every entry to what the tool really does to the
 * database and to the outside parties.
 */
export const TOOL_EFFECTS: Record<McpToolName, Effect> = {
  svc_generate_coil: STORES,
  svc_validate_coil: STORES,
  svc_score_coil: STORES,
  svc_create_receipt: STORES,
  svc_compile_broker_capsule: STORES,
  svc_risk_audit: STORES,
  svc_drift_check: STORES,
  svc_export_share_card: STORES,
  svc_verify_receipt: PURE,
  svc_explain_oracle_policy: PURE,

  svc_compile_partnerbot_broker_path: STORES,
  svc_validate_autonomy_fuses: PURE,
  svc_generate_partnerbot_command_pack: PURE,
  svc_generate_broker_mcp_instructions: PURE,
  svc_post_run_audit: PURE,

  svc_validate_usdg_vault: PURE,
  svc_create_vault_manifest: PURE,
  svc_compile_vault_rebalance_policy: PURE,
  svc_generate_vault_deposit_intent: READS_OUTSIDE,
  svc_generate_vault_receipt: READS_OUTSIDE,
  svc_post_vault_rebalance_audit: PURE,
  svc_calculate_vault_fees: PURE,
  svc_score_vault_risk: PURE,
  svc_compare_vaults_without_recommendation: PURE,

  svc_prepare_partnerbot_vault_deposit: SIGHTS_PACK,
  svc_generate_partnerbot_deposit_command: READS_OUTSIDE,
  svc_reconcile_partnerbot_deposit_receipt: RECONCILES,
  svc_prepare_partner_stock_token_trade: STORES,
  svc_generate_partner_stock_token_command: PURE,
  svc_submit_partner_stock_token_intent: PURE,
  svc_reconcile_partner_stock_token_job: RECONCILES,
  svc_prepare_vault_partner_rebalance: PURE,
  svc_import_partner_fee_claim: PURE,
  svc_plan_provider_rewards: PURE,
};

type JsonSchemaObject = Record<string, unknown> & { type: 'object'; properties?: Record<string, object>; required?: string[] };

/**
 * A JSON Schema (draft 2020-12) from one of the service's zod schemas, as the tools and the
 * schema resources publish it. MCP wants an object at the root of a tool schema; every tool's
 * input and output is one, and a root that is not (a union) is wrapped so the document stays
 * valid rather than being rewritten by hand.
 */
export function jsonSchemaOf(schema: unknown, io: 'input' | 'output'): JsonSchemaObject {
  if (!schema) return { type: 'object', properties: {} };
  // `unrepresentable: 'any'`: a refinement zod cannot express in JSON Schema is still
  // checked by the procedure itself; the document just says less about it.
  const json = withoutTypeArrays(z.toJSONSchema(schema as z.ZodType, { io, unrepresentable: 'any', target: 'draft-2020-12' })) as Record<
    string,
    unknown
  >;
  delete json.$schema;
  return json.type === 'object' ? (json as JsonSchemaObject) : ({ type: 'object', ...json } as JsonSchemaObject);
}

/**
 * The same schema with every `type` array (zod writes `.nullable()` of a primitive as
 * `type: ["string", "null"]`) rewritten as the equivalent `anyOf` of single types (one type:
 * that type), because clients whose schema dialect takes one type per schema (the MCP
 * Inspector's strict check among them) cannot read a type array. The other keywords stay
 * where they are: those that constrain one type (`minLength`, `minimum`, ...) ignore a value
 * of another type, and `enum`, `const` and `description` hold for the whole, as before.
 */
function withoutTypeArrays(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutTypeArrays);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) out[key] = key === 'type' ? value : withoutTypeArrays(value);
  if (!Array.isArray(out.type)) return out;
  const types = out.type as string[];
  delete out.type;
  if (types.length === 1) return { type: types[0], ...out };
  const alternatives = types.map((type) => ({ type }));
  if (out.anyOf === undefined) return { anyOf: alternatives, ...out };
  // Already an anyOf: both must hold.
  return { ...out, allOf: [...((out.allOf as unknown[] | undefined) ?? []), { anyOf: alternatives }] };
}

export interface BoundTool {
  tool: McpToolName;
  procedurePath: string;
  endpoint: string | null;
  meta: SvcMeta;
  /** The `tools/list` entry. */
  definition: Tool;
}

function bindTools(): BoundTool[] {
  return toolProcedures().map((entry) => {
    const procedure = entry.procedure;
    const meta = procedure._def.meta as SvcMeta;
    const title = entry.summary ?? entry.tool;
    const description = [
      entry.summary,
      operationDescription(entry.procedurePath, meta.openapi?.description),
      `Same operation as ${entry.endpoint}; its input is that route's body and its structuredContent that route's JSON answer.`,
    ]
      .filter(Boolean)
      .join('\n\n');
    return {
      tool: entry.tool,
      procedurePath: entry.procedurePath,
      endpoint: entry.endpoint,
      meta,
      definition: {
        name: entry.tool,
        title,
        description,
        inputSchema: jsonSchemaOf((procedure._def as { inputs?: unknown[] }).inputs?.[0], 'input'),
        outputSchema: jsonSchemaOf((procedure._def as { output?: unknown }).output, 'output'),
        annotations: { title, ...TOOL_EFFECTS[entry.tool] },
      },
    };
  });
}

/**
 * The toolset hash: sha256 of the RFC 8785 canonical JSON of the `tools/list` entries, in
 * their order (by name): every name, title, description, input and output schema and
 * annotation. Any change to what a client is told about a tool changes it. The one hash
 * function of the toolset: the server, the REST route and the pinned test all call it.
 */
export function toolsetHashOf(tools: readonly Tool[]): string {
  return hashCanonical(tools);
}

export interface Toolset {
  tools: readonly BoundTool[];
  hash: string;
}

let built: Toolset | undefined;

/**
 * The toolset of the application router (its registered tool procedures), built once per
 * process: the schemas depend only on the code.
 */
export function mcpToolset(): Toolset {
  if (!built) {
    const tools = bindTools();
    built = { tools, hash: toolsetHashOf(tools.map((t) => t.definition)) };
  }
  return built;
}

/** `serverInfo` of the MCP `initialize` answer: the toolset hash is in its description. */
export function mcpServerInfo(toolsetHash: string) {
  return {
    name: MCP_SERVER_NAME,
    title: 'Strategy Basket Service',
    version: MCP_SERVER_VERSION,
    description: `Planning and analysis tools for strategy baskets (Coils), vaults and partner rails; no tool places an order. Toolset sha256:${toolsetHash}`,
  };
}
