// Open-loop load (issue 27): requests are sent on a fixed schedule, one every 1/rate seconds
// spread over a pool of keep-alive connections, whatever the server is doing. Latency is
// counted from each request's scheduled send time, so a stall of the server (or of a queue in
// front of it) shows in full instead of slowing the load down, as a closed loop like
// autocannon's would (coordinated omission).
//
// The generator is woken by a 1 ms timer (a busy loop would take a core from the server on this
// 2-core machine); a request is sent at most about 1 ms after it is due, and that delay counts
// against the server, never for it, on both servers.
//
// It speaks HTTP/1.1 itself over net sockets, one request at a time per connection, rather than
// through node:http's client: on this 2-core machine the generator shares the CPU with the
// server it measures, and node:http cost it 71 to 108 µs of CPU a request against 26 to 67 µs
// here. Against the bare server answering GET /api/stocks/registry at 7,500 requests a second,
// p99 was 12.6 and 51 ms through node:http and 3.4 and 4.3 ms through this client (two runs
// each, same minute): the old client's own CPU was most of the tail it measured. It reads an
// answer framed by content-length or by chunks without trailers (what both servers send);
// anything else counts as an error.
import net from 'node:net';

/** One keep-alive connection that sends one prepared request at a time. */
class Connection {
  constructor(host, port, onFree, onLost) {
    this.socket = net.connect({ host, port, noDelay: true });
    this.pending = null;
    this.buffer = null;
    this.onFree = onFree;
    this.socket.on('data', (chunk) => this.read(chunk));
    this.socket.on('error', () => {});
    this.socket.on('close', () => {
      const pending = this.pending;
      this.pending = null;
      if (pending) pending(0);
      onLost(this);
    });
  }

  send(bytes, onAnswer) {
    this.pending = onAnswer;
    this.buffer = null;
    this.socket.write(bytes);
  }

  read(chunk) {
    this.buffer = this.buffer ? Buffer.concat([this.buffer, chunk]) : chunk;
    const headEnd = this.buffer.indexOf('\r\n\r\n');
    if (headEnd < 0) return;
    const head = this.buffer.toString('latin1', 0, headEnd);
    const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
    if (length) {
      if (this.buffer.length < headEnd + 4 + Number(length[1])) return;
    } else if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) {
      if (this.buffer.length < headEnd + 9 || this.buffer.toString('latin1', this.buffer.length - 5) !== '0\r\n\r\n') return;
    } else {
      this.socket.destroy();
      return;
    }
    const answered = this.pending;
    this.pending = null;
    this.buffer = null;
    answered(Number(head.slice(9, 12)));
    this.onFree(this);
  }
}

/**
 * Sends `rate` requests per second for `seconds` to `base` + `route.path` on `connections`
 * keep-alive sockets. Resolves to latency figures in ms (from the scheduled send time) and the
 * number of answers that did not have the route's status.
 */
export function openLoop(base, route, { rate, seconds, connections }) {
  const url = new URL(route.path, base);
  const requestBytes = () => {
    const body = route.body ? route.body() : '';
    const headers = route.body ? `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` : '';
    return `${route.method} ${url.pathname}${url.search} HTTP/1.1\r\nhost: ${url.host}\r\n${headers}\r\n${body}`;
  };
  const total = Math.max(1, Math.round(rate * seconds));
  const latencies = new Float64Array(total);
  const idle = [];
  const waiting = [];
  let finished = false;
  const onFree = (connection) => {
    const next = waiting.shift();
    if (next) connection.send(requestBytes(), next);
    else idle.push(connection);
  };
  // A connection the server closed is replaced, so the pool keeps its size.
  const onLost = (connection) => {
    const at = pool.indexOf(connection);
    const kept = idle.indexOf(connection);
    if (kept >= 0) idle.splice(kept, 1);
    if (at >= 0 && !finished) onFree((pool[at] = open()));
  };
  const open = () => new Connection(url.hostname, Number(url.port), onFree, onLost);
  const pool = [];
  for (let i = 0; i < connections; i++) pool.push(open());
  /** Sends one request of the route; `onAnswer` gets its status, or 0 when it failed. */
  const send = (onAnswer) => {
    const connection = idle.pop();
    if (connection) connection.send(requestBytes(), onAnswer);
    else waiting.push(onAnswer);
  };
  let sent = 0;
  let done = 0;
  let bad = 0;
  // Each connection answers one request (not counted) before the schedule starts: the phase
  // measures a steady load on keep-alive connections, not 64 TCP handshakes at once.
  const warm = pool.map((connection) => new Promise((opened) => connection.send(requestBytes(), opened)));
  return Promise.all(warm).then(
    () =>
      new Promise((resolve) => {
        const t0 = performance.now() + 5;
        const finish = () => {
          finished = true;
          for (const connection of pool) connection.socket.destroy();
          const sorted = Array.from(latencies).sort((a, b) => a - b);
          const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
          // `startedAtMs` is on CLOCK_MONOTONIC, the clock of a kernel trace (offcpu-trace.mjs).
          const startedAtMs = t0 + Number(process.hrtime.bigint()) / 1e6 - performance.now();
          resolve({ sent: total, bad, p50: at(0.5), p99: at(0.99), max: sorted[sorted.length - 1], startedAtMs });
        };
        const sendOne = (i, scheduledAt) =>
          send((status) => {
            latencies[i] = performance.now() - scheduledAt;
            if (status !== route.status) bad++;
            if (++done === total) finish();
          });
        // Each tick sends every request whose time has come, stamped with the time it was due.
        const tick = () => {
          const due = Math.min(total, Math.floor(((performance.now() - t0) / 1000) * rate) + 1);
          while (sent < due) {
            const i = sent++;
            sendOne(i, t0 + (i * 1000) / rate);
          }
          if (sent < total) setTimeout(tick, 1);
        };
        setTimeout(tick, 5);
      }),
  );
}
