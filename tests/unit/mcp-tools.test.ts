/**
 * The 34 MCP tools of interface 4.9 walked against the procedures: each tool names exactly one
 * procedure, that procedure has a REST route, no procedure names a tool outside the 34, and
 * docs/mcp-tools.md states the same tool → route table.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { procedureRecord } from '../../src/lib/server/trpc/route-table';
import { describe, expect, it } from 'vitest';
import { MCP_TOOL_NAMES, MCP_TOOLS, AGENT_WORKFLOWS, agentsSchema } from '../../src/lib/server/registry/agents';
import { indexToolProcedures, toolOfEndpoint, toolProcedures } from '../../src/lib/server/trpc/mcp-tools';
import { appRouter } from '../../src/lib/server/trpc/router';
import { TOOL_EFFECTS } from '../../src/lib/server/trpc/mcp-toolset';

const procedures = procedureRecord(appRouter);
const index = indexToolProcedures(procedures);

describe('the 34 MCP tools', () => {
  it('are 34 distinct names in four groups', () => {
    expect(MCP_TOOL_NAMES).toHaveLength(34);
    expect(new Set(MCP_TOOL_NAMES).size).toBe(34);
    expect(Object.values(MCP_TOOLS).map((g) => g.length)).toEqual([10, 5, 9, 10]);
  });

  it('each names exactly one procedure, and that procedure has a REST route', () => {
    const problems: string[] = [];
    for (const tool of MCP_TOOL_NAMES) {
      const backing = index.filter((t) => t.tool === tool);
      if (backing.length === 0) problems.push(`${tool}: no procedure`);
      if (backing.length > 1) problems.push(`${tool}: ${backing.length} procedures (${backing.map((b) => b.procedurePath).join(', ')})`);
      for (const b of backing) if (b.endpoint === null) problems.push(`${tool}: ${b.procedurePath} has no REST route`);
    }
    expect(problems).toEqual([]);
  });

  it('no procedure names a tool that is not one of the 34', () => {
    const known = new Set<string>(MCP_TOOL_NAMES);
    expect(index.filter((t) => !known.has(t.tool)).map((t) => `${t.procedurePath}: ${t.tool}`)).toEqual([]);
    expect(index).toHaveLength(34);
  });

  it('maps 34 tools to 34 different routes', () => {
    expect(new Set(index.map((t) => t.endpoint)).size).toBe(34);
  });

  it('is what the application router registered for the agent index', () => {
    expect(toolProcedures()).toEqual(index);
    expect(toolOfEndpoint().size).toBe(34);
  });

  it('lists every tool in the agent index, in the workflow that lists its route', () => {
    const schema = agentsSchema(toolOfEndpoint());
    const listed = new Set(schema.workflows.flatMap((w) => w.mcpTools));
    expect([...MCP_TOOL_NAMES].filter((t) => !listed.has(t))).toEqual([]);
    for (const w of schema.workflows) {
      const source = AGENT_WORKFLOWS.find((x) => x.id === w.id)!;
      for (const tool of w.mcpTools) expect(source.endpoints).toContain(index.find((t) => t.tool === tool)!.endpoint);
    }
    expect(schema.mcpToolCount).toBe(34);
  });

  it('docs/mcp-tools.md states each tool with the route its procedure has', () => {
    const doc = readFileSync(resolve(import.meta.dirname, '../../docs/mcp-tools.md'), 'utf8');
    const rows = new Map<string, string>();
    for (const line of doc.split('\n')) {
      const m = /^\|\s*`(svc_[a-z_]+)`\s*\|[^|]*\|\s*`((?:GET|POST) \/api\/[^`]+)`\s*\|/.exec(line);
      if (m) rows.set(m[1]!, m[2]!);
    }
    expect(rows.size).toBe(34);
    for (const t of index) expect(rows.get(t.tool), t.tool).toBe(t.endpoint);
  });

  it("docs/mcp-tools.md states each tool's annotations as TOOL_EFFECTS sets them", () => {
    const doc = readFileSync(resolve(import.meta.dirname, '../../docs/mcp-tools.md'), 'utf8');
    const rows = new Map<string, object>();
    for (const line of doc.split('\n')) {
      const m = /^\|\s*`(svc_[a-z_]+)`\s*\|\s*(true|false)\s*\|\s*(true|false)\s*\|\s*(true|false)\s*\|\s*(true|false)\s*\|$/.exec(line);
      if (m)
        rows.set(m[1]!, {
          readOnlyHint: m[2] === 'true',
          destructiveHint: m[3] === 'true',
          idempotentHint: m[4] === 'true',
          openWorldHint: m[5] === 'true',
        });
    }
    expect(Object.fromEntries(rows)).toEqual(TOOL_EFFECTS);
  });
});
