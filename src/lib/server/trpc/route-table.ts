/**
 * Which route a request is for, from the router's own OpenAPI metadata: the REST dispatch
 * (http/dispatch.ts) calls the matched procedure, the rate limiter counts per route ("a tool is
 * one route", `rateKeyOf`), the logs name the route template, and error envelopes know the
 * route's meta. A REST call and the typed client's call of the same procedure are the same tool.
 * Built once at start-up; matching a request is a scan of precompiled patterns.
 */
import type { AnyProcedure, AnyRouter } from '@trpc/server';
import type { RouteFamily, SvcMeta } from './meta';

/**
 * Every procedure of a router by its dotted path. tRPC v11 has no public API that lists a
 * router's procedures (checked against @trpc/server 11.25.2: the caller, the adapters and
 * `getProcedureAtPath` all take a path you already know), so this reads `router._def.procedures`,
 * the same record trpc-to-openapi's document generator walks. tests/unit/route-table.test.ts
 * pins what is relied on: the record holds every procedure, keyed by its dotted path, with its
 * meta and type, and the server-side caller reaches each by that path.
 */
export function procedureRecord(router: AnyRouter): Record<string, AnyProcedure> {
  return router._def.procedures as Record<string, AnyProcedure>;
}

export interface RouteEntry {
  procedurePath: string;
  method: 'GET' | 'POST';
  /** e.g. `/api/stocks/partner-job/{jobId}` */
  template: string;
  family: RouteFamily;
  meta: SvcMeta;
  /** The procedure's rate-limit counter and log name (`rateKeyOf`). */
  rateKey: string;
  /** Matches the request path; a `{name}` segment is the named group `name`. */
  pattern: RegExp;
}

export const REST_PREFIX = '/api';

/**
 * The tool a procedure call counts against (interface 8: per client, per tool) and the name
 * the logs give it: its REST route, `METHOD /api/template`, so the REST call, the /trpc call
 * and the MCP tool call of one procedure share one counter. A procedure without a REST route
 * counts under its own path.
 */
export function rateKeyOf(meta: SvcMeta | undefined, procedurePath: string): string {
  const openapi = meta?.openapi;
  return openapi ? `${openapi.method.toUpperCase()} ${REST_PREFIX}${openapi.path}` : `TRPC ${procedurePath}`;
}

function toPattern(template: string): RegExp {
  const escaped = template
    .split('/')
    .map((segment) => {
      const param = /^\{([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(segment);
      if (param) return `(?<${param[1]}>[^/]+)`;
      if (segment.includes('{'))
        throw new Error(`route template ${template}: a parameter must be a whole segment named like an identifier`);
      return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return new RegExp(`^${escaped}/?$`);
}

export function buildRouteTable(procedures: Record<string, AnyProcedure>): RouteEntry[] {
  const entries: RouteEntry[] = [];
  for (const [procedurePath, procedure] of Object.entries(procedures)) {
    const meta = procedure._def.meta as SvcMeta | undefined;
    if (!meta?.family) throw new Error(`procedure ${procedurePath} has no family in its meta`);
    if (!meta.openapi) continue;
    const method = meta.openapi.method.toUpperCase() as 'GET' | 'POST';
    const template = `${REST_PREFIX}${meta.openapi.path}`;
    entries.push({
      procedurePath,
      method,
      template,
      family: meta.family,
      meta,
      rateKey: rateKeyOf(meta, procedurePath),
      pattern: toPattern(template),
    });
  }
  // Static segments before parameters so `/vaults/schema` wins over `/vaults/{slug}`.
  return entries.sort((a, b) => b.template.split('{').length - a.template.split('{').length).reverse();
}

/** A path as its route's pattern sees it: one trailing slash is the same route (`/?$`). */
function withoutTrailingSlash(pathname: string): string {
  return pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
}

function segmentCount(path: string): number {
  let count = 0;
  for (let i = 0; i < path.length; i++) if (path.charCodeAt(i) === 47) count++;
  return count;
}

export class RouteIndex {
  /**
   * Routes without path parameters by `METHOD /path`: most requests are answered by one
   * lookup here. The scan of patterns below gives the same answer (a static route sorts
   * before every route with parameters), only slower.
   */
  private readonly staticRoutes: Map<string, RouteEntry>;
  /**
   * Routes with path parameters by `METHOD <number of segments>` (a parameter is one whole
   * segment), in table order: a path is matched against the few of its own length only.
   */
  private readonly paramRoutes = new Map<string, RouteEntry[]>();
  constructor(private readonly entries: RouteEntry[]) {
    this.staticRoutes = new Map(entries.filter((e) => !e.template.includes('{')).map((e) => [`${e.method} ${e.template}`, e]));
    for (const e of entries) {
      if (!e.template.includes('{')) continue;
      const key = `${e.method} ${segmentCount(e.template)}`;
      this.paramRoutes.set(key, [...(this.paramRoutes.get(key) ?? []), e]);
    }
  }

  /**
   * The route and its path parameters, as sent (still percent-encoded, as trpc-to-openapi
   * passed them; each procedure's schema decides what a parameter may be).
   */
  resolveRest(method: string, pathname: string): { route: RouteEntry; pathParams: Record<string, string> } | undefined {
    const path = withoutTrailingSlash(pathname);
    const fixed = this.staticRoutes.get(`${method} ${path}`);
    if (fixed) return { route: fixed, pathParams: {} };
    for (const route of this.paramRoutes.get(`${method} ${segmentCount(path)}`) ?? []) {
      const match = route.pattern.exec(pathname);
      if (match) return { route, pathParams: { ...match.groups } };
    }
    return undefined;
  }

  /** Whether some route exists at this path under another method (405 rather than 404). */
  hasPath(pathname: string): boolean {
    return this.entries.some((e) => e.pattern.test(pathname));
  }

  all(): readonly RouteEntry[] {
    return this.entries;
  }
}
