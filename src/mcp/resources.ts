/**
 * The MCP resources: reference data an agent reads before it calls a tool. Each is what the
 * service itself uses, from the same function or zod schema: the canonical registry (the
 * answer of `GET /api/stocks/registry`), the oracle policy (the `policy` of
 * `svc_explain_oracle_policy`), and the JSON Schemas of a Coil and of the receipts, made
 * from the zod schemas the procedures validate and answer with, by the same conversion the
 * tools' own schemas use (`jsonSchemaOf`).
 */
import type { Resource } from '@modelcontextprotocol/sdk/types.js';
import { readServerClock } from '$lib/server/clock';
import { coilSchema } from '$lib/server/coil/manifest';
import { publicRegistry } from '$lib/server/registry';
import { explainOraclePolicy } from '$lib/server/registry/oracle-policy';
import { receiptOut } from '$lib/server/receipts/receipt.schema';
import { artifactReceiptOut } from '$lib/server/receipts/artifact.schema';
import { jsonSchemaOf } from '$lib/server/trpc/mcp-toolset';

const JSON_SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';

interface ResourceEntry extends Resource {
  /** The resource's JSON value; the text content is its JSON. */
  read(): unknown;
}

function schemaDocument(uri: string, title: string, schema: unknown, io: 'input' | 'output'): Record<string, unknown> {
  return { $schema: JSON_SCHEMA_DIALECT, $id: uri, title, ...jsonSchemaOf(schema, io) };
}

const RESOURCES: readonly ResourceEntry[] = [
  {
    uri: 'svc://registry/canonical',
    name: 'canonical-registry',
    title: 'Canonical registry of chain 4663',
    description:
      'The 15 stock and ETF tokens, USDG and WETH at their fixed addresses on chain 4663: the token address is the identity, a ticker is display metadata. The same JSON as GET /api/stocks/registry.',
    mimeType: 'application/json',
    read: () => publicRegistry(),
  },
  {
    uri: 'svc://oracle/policy',
    name: 'oracle-policy',
    title: 'Oracle policy',
    description:
      'The oracle policy in force: per asset the price feed and the largest age of a live price; a stale, future-stamped or missing price is unknown, never zero and never live. The `policy` of svc_explain_oracle_policy (POST /api/tools/oracle-policy), which also classifies price readings.',
    mimeType: 'application/json',
    // No readings: the policy alone, which does not depend on the clock.
    read: () => explainOraclePolicy(undefined, readServerClock()).policy,
  },
  {
    uri: 'svc://schemas/coil.schema.json',
    name: 'coil-schema',
    title: 'JSON Schema of a Coil',
    description:
      'What a Coil must look like as input (the `coil` of svc_validate_coil, svc_create_receipt and the other Coil tools): the zod schema the service validates with, as JSON Schema draft 2020-12.',
    mimeType: 'application/schema+json',
    read: () => schemaDocument('svc://schemas/coil.schema.json', 'Coil', coilSchema, 'input'),
  },
  {
    uri: 'svc://schemas/receipt.schema.json',
    name: 'receipt-schema',
    title: 'JSON Schema of a Coil receipt (hrcpt_)',
    description:
      'A Coil receipt as the service issues it (svc_create_receipt, the `receipt` of the Coil tools; verified by svc_verify_receipt): a deterministic content-addressed fingerprint, never on-chain anchoring.',
    mimeType: 'application/schema+json',
    read: () => schemaDocument('svc://schemas/receipt.schema.json', 'Coil receipt', receiptOut, 'output'),
  },
  {
    uri: 'svc://schemas/artifact-receipt.schema.json',
    name: 'artifact-receipt-schema',
    title: 'JSON Schema of an artifact receipt (arcpt_)',
    description:
      'An artifact receipt as the service issues it (autonomy path, audits, fee claim, reward plan, oracle policy, prepared commands; verified by POST /api/receipts/verify).',
    mimeType: 'application/schema+json',
    read: () => schemaDocument('svc://schemas/artifact-receipt.schema.json', 'Artifact receipt', artifactReceiptOut, 'output'),
  },
];

/** The `resources/list` entries. */
export function mcpResources(): Resource[] {
  return RESOURCES.map(({ read: _read, ...resource }) => resource);
}

/** The `resources/read` contents of one URI, or undefined for a URI this server does not serve. */
export function readMcpResource(uri: string): { uri: string; mimeType: string; text: string } | undefined {
  const entry = RESOURCES.find((r) => r.uri === uri);
  if (!entry) return undefined;
  return { uri: entry.uri, mimeType: entry.mimeType!, text: JSON.stringify(entry.read()) };
}
