import http, { type Server } from 'node:http';
import type { Express } from 'express';
import type { Config } from '../config.js';

type Limits = Pick<Config, 'PORT' | 'HOST' | 'HEADERS_TIMEOUT_MS' | 'REQUEST_TIMEOUT_MS' | 'MAX_CONNECTIONS'>;

/**
 * The HTTP server of the api role, bounded against slow and numerous clients: a request must send its
 * headers within HEADERS_TIMEOUT_MS and all of itself within REQUEST_TIMEOUT_MS (responses, such as
 * server-sent events, are not limited), and at most MAX_CONNECTIONS sockets are open at once; others
 * are closed on arrival.
 */
export function listenHttp(app: Express, config: Limits): Promise<Server> {
  const requestTimeout = config.REQUEST_TIMEOUT_MS;
  // Node refuses a header timeout longer than the whole request's.
  const headersTimeout = Math.min(config.HEADERS_TIMEOUT_MS, requestTimeout);
  const server = http.createServer(
    // Node checks the timeouts on this interval; its 30 s default would let a slow client stay that much longer.
    { headersTimeout, requestTimeout, connectionsCheckingInterval: Math.min(1_000, headersTimeout) },
    app,
  );
  server.maxConnections = config.MAX_CONNECTIONS;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.PORT, config.HOST, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}
