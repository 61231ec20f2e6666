/** Long descriptions of the system family (routers/system/), keyed by procedure path. */
import { TOOLSET_HASH_META_KEY } from '../toolset-hash-key';

export const SYSTEM_DOCS: Readonly<Record<string, string>> = {
  'system.health':
    'What this deployment is configured to do: each flag says whether something is set or switched on, never whether it answers. Whether each dependency answers right now: GET /api/readiness.',
  'system.readiness':
    "Always answers 200. Each dependency (database, chain 4663, the shared rate-limit store, the facilitator, the partner) is checked live: ok, degraded, down, not_configured or unknown, with the server's time of its last check. A check's outcome is reused for checks.cachedForSeconds and a check is bounded by checks.timeoutMs. status is not_ready unless the database is ok, degraded while any configured dependency is not ok, else ready. A failed check is reported as failed, never as healthy, and configuration alone never makes a dependency ok.",
  'system.resolveAsset':
    'A canonical ticker presented at another address is a mismatch, never a match. Addresses are compared case-insensitively and returned checksummed.',
  'system.mcpToolset': `toolsetHash is the sha256 of the RFC 8785 canonical JSON of the tools/list entries (name, title, description, inputSchema, outputSchema, annotations), the same hash the MCP server names in its serverInfo.description, its instructions and the _meta key ${TOOLSET_HASH_META_KEY} of tools/list. It changes whenever anything a client is told about a tool changes. Each tool's annotations (readOnlyHint, destructiveHint, idempotentHint, openWorldHint) are listed beside its name.`,
};
