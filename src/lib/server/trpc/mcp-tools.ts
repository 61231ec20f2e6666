/**
 * The MCP tools of interface 4.9 as the procedures that back them: every procedure whose meta
 * names a `tool`, with its REST route. The MCP server walks this list, and the agent index
 * lists each workflow's tools from it; neither keeps a list of its own.
 */
import type { AnyProcedure, AnyRouter } from '@trpc/server';
import type { McpToolName } from '../registry/agents';
import type { SvcMeta } from './meta';
import { procedureRecord, REST_PREFIX } from './route-table';

export interface ToolProcedure {
  tool: McpToolName;
  /** The procedure's path in the router, e.g. `tools.validateCoil`. */
  procedurePath: string;
  /** `METHOD /api/path`, or null when the procedure has no REST route (the walk test refuses it). */
  endpoint: string | null;
  summary: string | null;
  /** The procedure itself: its meta, its input and output schemas (the tool's definition). */
  procedure: AnyProcedure;
}

export function indexToolProcedures(procedures: Record<string, AnyProcedure>): ToolProcedure[] {
  const out: ToolProcedure[] = [];
  for (const [procedurePath, procedure] of Object.entries(procedures)) {
    const meta = procedure._def.meta as SvcMeta | undefined;
    if (!meta?.tool) continue;
    const openapi = meta.openapi;
    out.push({
      tool: meta.tool,
      procedurePath,
      endpoint: openapi ? `${openapi.method.toUpperCase()} ${REST_PREFIX}${openapi.path}` : null,
      summary: openapi?.summary ?? null,
      procedure,
    });
  }
  return out.sort((a, b) => (a.tool < b.tool ? -1 : a.tool > b.tool ? 1 : 0));
}

let registered: ToolProcedure[] | undefined;

/** Called once by the application router after it is built. */
export function registerToolProcedures(router: AnyRouter): void {
  registered = indexToolProcedures(procedureRecord(router));
}

export function toolProcedures(): readonly ToolProcedure[] {
  if (!registered) throw new Error('the application router has not registered its tool procedures');
  return registered;
}

/** `METHOD /api/path` → the tool its procedure backs. */
export function toolOfEndpoint(): ReadonlyMap<string, McpToolName> {
  return new Map(
    toolProcedures()
      .filter((t) => t.endpoint !== null)
      .map((t) => [t.endpoint!, t.tool]),
  );
}
