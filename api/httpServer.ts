// The HTTP server every API instance runs on: the API process, the test harness and benchmarks.
import http, { type RequestListener, type Server } from 'node:http';

/**
 * Idle keep-alive connections stay open longer than clients and proxies keep theirs (commonly
 * 60 s). With Node's default of 5 s, a client reusing a connection after a few seconds' pause
 * could send just as the server closed it, and see ECONNRESET.
 */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;

export function createApiServer(listener?: RequestListener): Server {
  const server = http.createServer(listener);
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  // Node's advice: the headers timeout longer than the keep-alive one.
  server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;
  return server;
}
