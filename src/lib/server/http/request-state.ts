/** Per-request facts that `handle` establishes before any route runs. */
export interface RequestState {
  requestId: string;
  /** The server's clock at arrival (see RequestContext.serverTime). */
  serverTime: Date;
  startedAtMs: number;
  clientAddress: string;
  /** `METHOD /template` of the matched route: the rate-limit "tool" and the log's route. */
  routeKey: string;
  /** The POST body as received (already size-checked, parsed and credential-checked). */
  rawBody?: string;
  /** The same body parsed (the REST dispatch's input; never parsed twice). */
  body?: Record<string, unknown>;
}
