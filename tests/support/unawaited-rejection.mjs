// Loaded into the test server with `node --import` (tests/api/server-survives.test.ts): a
// request to /__test/unawaited-rejection starts a promise that rejects with nobody listening,
// as a handler with a forgotten `.catch` would. Nothing of the app is changed.
import http from 'node:http';

const createServer = http.createServer;
http.createServer = function (...args) {
  const server = createServer.apply(this, args);
  server.prependListener('request', (req) => {
    if (req.url === '/__test/unawaited-rejection') void Promise.reject(new Error('a rejection nobody awaits'));
  });
  return server;
};
