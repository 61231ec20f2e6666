/**
 * Which route a request is for, from the router's own OpenAPI metadata: the rate limiter
 * counts per route ("a tool is one route"), the logs name the route template, and error
 * envelopes know the route's family. A REST call and the typed client's call of the same
 * procedure are the same tool.
 */
import type { AnyProcedure } from '@trpc/server';
import type { RouteFamily, SvcMeta } from './init';

export interface RouteEntry {
  procedurePath: string;
  method: 'GET' | 'POST';
  /** e.g. `/api/stocks/partner-job/{jobId}` */
  template: string;
  family: RouteFamily;
  meta: SvcMeta;

  pattern: RegExp;
}

export const REST_PREFIX = '/api';

function toPattern(template: string): RegExp {
  const escaped = template
    .split('/')
    .map((segment) => (/^\{[^}]+\}$/.test(segment) ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
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
    entries.push({ procedurePath, method, template, family: meta.family, meta, pattern: toPattern(template) });
  }
  // Static segments before parameters so `/vaults/schema` wins over `/vaults/{slug}`.
  return entries.sort((a, b) => b.template.split('{').length - a.template.split('{').length).reverse();
}

export class RouteIndex {
  private readonly byProcedure: Map<string, RouteEntry>;
  constructor(private readonly entries: RouteEntry[]) {
    this.byProcedure = new Map(entries.map((e) => [e.procedurePath, e]));
  }

  matchRest(method: string, pathname: string): RouteEntry | undefined {
    return this.entries.find((e) => e.method === method && e.pattern.test(pathname));
  }

  /** Whether some route exists at this path under another method (405 rather than 404). */
  hasPath(pathname: string): boolean {
    return this.entries.some((e) => e.pattern.test(pathname));
  }

  forProcedure(path: string): RouteEntry | undefined {
    return this.byProcedure.get(path);
  }

  all(): readonly RouteEntry[] {
    return this.entries;
  }
}
