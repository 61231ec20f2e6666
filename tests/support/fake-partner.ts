/**
 * A stand-in for the external trading-agent provider's API (interface 4.5: `POST /agent/prompt`
 * with `X-API-Key` and `{ prompt }` → `{ jobId }`; `GET /agent/job/{jobId}` → the job), as a
 * real HTTP server on 127.0.0.1. It behaves as documented and misbehaves on demand, and it
 * records every request so tests can prove what was (and was not) sent.
 *
 * Response shapes follow the provider's public agent API: a submission answers
 * `{ success, jobId, threadId, status: "pending", message }`; a job read answers
 * `{ success, jobId, status, prompt, response?, error?, createdAt, completedAt? }` with status
 * one of pending, processing, completed, failed, cancelled.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

export type PartnerJobStatus = 'pending' | 'processing' | 'completed' | 'failed' | 'cancelled';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** What the next submission or job read does instead of answering normally. */
export type Misbehaviour =
  | { kind: 'status'; status: number; body?: string }
  | { kind: 'hang' } // never answers (the caller's timeout must fire)
  | { kind: 'delay'; ms: number }
  | { kind: 'bad_json' }
  | { kind: 'reset' }; // destroys the socket

export interface FakeJob {
  jobId: string;
  prompt: string;
  /** Statuses returned by successive reads; the last one repeats. */
  statuses: PartnerJobStatus[];
  reads: number;
  response?: string;
  error?: string;
  /** The wallet the job reports as trading for it (`walletAddress` of a job read), when set. */
  walletAddress?: string;
}

export interface FakePartnerOptions {
  apiKey: string;
  /** Called for each new prompt: returns the job's status script and final answer text. */
  script?: (prompt: string) => { statuses?: PartnerJobStatus[]; response?: string; error?: string };
}

export class FakePartner {
  readonly requests: RecordedRequest[] = [];
  readonly jobs = new Map<string, FakeJob>();
  private server?: Server;
  private nextId = 1;
  private submitFaults: Misbehaviour[] = [];
  private jobFaults: Misbehaviour[] = [];
  private refusal?: { pattern: RegExp; status: number };
  url = '';

  constructor(private readonly options: FakePartnerOptions) {}

  /** The next `count` submissions misbehave this way. */
  failNextSubmit(fault: Misbehaviour, count = 1): void {
    for (let i = 0; i < count; i++) this.submitFaults.push(fault);
  }

  /** Every submission whose prompt matches `pattern` is refused with `status` until cleared (null). */
  refusePrompts(pattern: RegExp | null, status = 400): void {
    this.refusal = pattern ? { pattern, status } : undefined;
  }

  /** The next `count` job reads misbehave this way. */
  failNextJobRead(fault: Misbehaviour, count = 1): void {
    for (let i = 0; i < count; i++) this.jobFaults.push(fault);
  }

  /** Changes the script of an existing job (e.g. to complete it later). */
  setJob(jobId: string, patch: Partial<Omit<FakeJob, 'jobId'>>): void {
    const job = this.jobs.get(jobId);
    if (!job) throw new Error(`no job ${jobId}`);
    Object.assign(job, patch);
  }

  submissions(): RecordedRequest[] {
    return this.requests.filter((r) => r.method === 'POST' && r.path === '/agent/prompt');
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as { port: number };
    this.url = `http://127.0.0.1:${port}`;
    return this;
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let body = '';
    for await (const chunk of req) body += chunk;
    const path = (req.url ?? '/').split('?')[0]!;
    this.requests.push({ method: req.method ?? 'GET', path, headers: req.headers, body });

    const isSubmit = req.method === 'POST' && path === '/agent/prompt';
    const jobMatch = req.method === 'GET' ? /^\/agent\/job\/([^/]+)$/.exec(path) : null;
    const fault = isSubmit ? this.submitFaults.shift() : jobMatch ? this.jobFaults.shift() : undefined;
    if (fault) {
      if (fault.kind === 'hang') return; // leave the request open
      if (fault.kind === 'reset') return void req.socket.destroy();
      if (fault.kind === 'delay') await new Promise((r) => setTimeout(r, fault.ms));
      if (fault.kind === 'bad_json') return this.send(res, 200, '{"success": true, "jobId": ', true);
      if (fault.kind === 'status')
        return this.send(res, fault.status, fault.body ?? JSON.stringify({ success: false, error: 'upstream error' }), true);
    }

    if (req.headers['x-api-key'] !== this.options.apiKey) {
      return this.send(res, 401, JSON.stringify({ success: false, error: 'Invalid API key' }), true);
    }

    if (isSubmit) {
      let prompt: unknown;
      try {
        prompt = JSON.parse(body).prompt;
      } catch {
        return this.send(res, 400, JSON.stringify({ success: false, error: 'Invalid JSON' }), true);
      }
      if (typeof prompt !== 'string' || prompt.length === 0) {
        return this.send(res, 400, JSON.stringify({ success: false, error: 'prompt is required' }), true);
      }
      if (this.refusal?.pattern.test(prompt)) {
        return this.send(
          res,
          this.refusal.status,
          JSON.stringify({ success: false, error: 'This market is closed for the account' }),
          true,
        );
      }
      const jobId = `job_${String(this.nextId++).padStart(4, '0')}`;
      const scripted = this.options.script?.(prompt) ?? {};
      this.jobs.set(jobId, {
        jobId,
        prompt,
        statuses: scripted.statuses ?? ['pending', 'processing', 'completed'],
        reads: 0,
        response: scripted.response,
        error: scripted.error,
      });
      return this.send(
        res,
        202,
        JSON.stringify({ success: true, jobId, threadId: `thr_${jobId}`, status: 'pending', message: 'Job submitted' }),
        true,
      );
    }

    if (jobMatch) {
      const job = this.jobs.get(decodeURIComponent(jobMatch[1]!));
      if (!job) return this.send(res, 404, JSON.stringify({ success: false, error: 'Job not found' }), true);
      const status = job.statuses[Math.min(job.reads, job.statuses.length - 1)]!;
      job.reads++;
      const payload: Record<string, unknown> = {
        success: true,
        jobId: job.jobId,
        status,
        prompt: job.prompt,
        createdAt: '2026-01-01T00:00:00.000Z',
      };
      if (status === 'completed') {
        payload.response = job.response ?? 'Done.';
        payload.completedAt = '2026-01-01T00:00:05.000Z';
      }
      if (status === 'failed') payload.error = job.error ?? 'The job failed';
      if (job.walletAddress) payload.walletAddress = job.walletAddress;
      return this.send(res, 200, JSON.stringify(payload), true);
    }

    this.send(res, 404, JSON.stringify({ success: false, error: 'Not found' }), true);
  }

  private send(res: ServerResponse, status: number, body: string, json: boolean): void {
    res.statusCode = status;
    if (json) res.setHeader('content-type', 'application/json');
    res.end(body);
  }
}

export async function startFakePartner(options: FakePartnerOptions): Promise<FakePartner> {
  return new FakePartner(options).start();
}

/** The server settings of an enabled stock lane: this fake partner, its key, and the local chain's RPC. */
export function stockLaneEnv(partner: FakePartner, apiKey: string, rpcUrl: string): Record<string, string> {
  return {
    PARTNER_API_URL: partner.url,
    PARTNER_API_KEY: apiKey,
    PARTNER_AGENT_API_ENABLED: 'true',
    PARTNER_TIMEOUT_MS: '3000',
    BROKER_CHAIN_RPC_URL: rpcUrl,
  };
}
