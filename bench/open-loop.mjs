// Open-loop load (issue 27): requests are sent on a fixed schedule, one every 1/rate seconds
// spread over a pool of keep-alive connections, whatever the server is doing. Latency is
// counted from each request's scheduled send time, so a stall of the server (or of a queue in
// front of it) shows in full instead of slowing the load down, as a closed loop like
// autocannon's would (coordinated omission).
//
// The generator is node:http with a keep-alive agent, woken by a 1 ms timer (a busy loop would
// take a core from the server on this 2-core machine); a request is sent at most about 1 ms
// after it is due, and that delay counts against the server, never for it, on both servers.
import http from 'node:http';

/**
 * Sends `rate` requests per second for `seconds` to `base` + `route.path` on `connections`
 * keep-alive sockets. Resolves to latency figures in ms (from the scheduled send time) and the
 * number of answers that did not have the route's status.
 */
export function openLoop(base, route, { rate, seconds, connections }) {
  const url = new URL(route.path, base);
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections });
  const total = Math.max(1, Math.round(rate * seconds));
  const latencies = new Float64Array(total);
  let sent = 0;
  let done = 0;
  let bad = 0;
  /** Sends one request of the route; `onAnswer` gets its status, or 0 when it failed. */
  const send = (onAnswer) => {
    const body = route.body ? route.body() : undefined;
    const req = http.request(
      url,
      {
        method: route.method,
        agent,
        headers: body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : {},
      },
      (res) => res.resume().on('end', () => onAnswer(res.statusCode)),
    );
    req.on('error', () => onAnswer(0));
    req.end(body);
  };
  // The connections are opened (one request each, not counted) before the schedule starts: the
  // phase measures a steady load on keep-alive connections, not 64 TCP handshakes at once.
  const warm = Array.from({ length: connections }, () => new Promise((opened) => send(opened)));
  return Promise.all(warm).then(
    () =>
      new Promise((resolve) => {
        const t0 = performance.now() + 5;
        const finish = () => {
          agent.destroy();
          const sorted = Array.from(latencies).sort((a, b) => a - b);
          const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
          resolve({ sent: total, bad, p50: at(0.5), p99: at(0.99), max: sorted[sorted.length - 1] });
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
