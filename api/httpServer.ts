// The HTTP server every API instance runs on: the API process, the test harness and benchmarks.
import http, { type RequestListener, type Server } from 'node:http';
import type { Duplex } from 'node:stream';

/**
 * Idle keep-alive connections stay open longer than clients and proxies keep theirs (commonly
 * 60 s). With Node's default of 5 s, a client reusing a connection after a few seconds' pause
 * could send just as the server closed it, and see ECONNRESET.
 */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/**
 * Room for long filters (`cycler_id=in.(...)` with hundreds of ids) in the URL; Node's default
 * is 16 KiB. Beyond it the answer is still the conventions' JSON error.
 */
const MAX_HEADER_BYTES = 64 * 1024;

/** Errors Node's HTTP parser answers before any route runs: in the conventions' JSON form. */
function clientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  const response = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (err.code === 'ECONNRESET' || !socket.writable || response?.headersSent) {
    socket.destroy(); // the client is gone, or a response has begun: nothing sane can follow
    return;
  }
  const [status, reason, code, message] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [
          431,
          'Request Header Fields Too Large',
          'REQUEST_HEADER_FIELDS_TOO_LARGE',
          `the request line and headers exceed ${MAX_HEADER_BYTES} bytes (a long filter belongs in several requests)`,
        ]
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' || err.code === 'ERR_HTTP_HEADERS_TIMEOUT'
        ? [408, 'Request Timeout', 'REQUEST_TIMEOUT', 'the request did not arrive in time']
        : [400, 'Bad Request', 'BAD_REQUEST', 'the request is not valid HTTP'];
  const body = JSON.stringify({ error_code: code, message, detail: {} });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ` +
      `${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

export function createApiServer(listener?: RequestListener): Server {
  const server = http.createServer({ maxHeaderSize: MAX_HEADER_BYTES }, listener);
  server.on('clientError', clientError);
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  // Node's advice: the headers timeout longer than the keep-alive one.
  server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;
  return server;
}
