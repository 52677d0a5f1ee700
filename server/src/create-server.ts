import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import sirv from 'sirv';
import { createLedgerProxy, type LedgerProxy } from './ledger-proxy';

/** Paths of the participant's API (ledger-api-behaviour.md §10): everything under /v2, plus health. */
export const LEDGER_PATH_PREFIXES: readonly string[] = ['/v2', '/livez', '/readyz'];

export type CreateServerOptions = {
  /** The built SPA (Vite's `dist/`); must exist, since the file list is read once here. */
  distDir: string;
  /** Base URL of the participant's JSON Ledger API. */
  ledgerUrl: string | URL;
  /** Extra path prefixes sent to the ledger, e.g. the sandbox's `/__sandbox` controls. */
  extraProxyPrefixes?: readonly string[];
};

const proxies = new WeakMap<http.Server, LedgerProxy>();

/**
 * The console's HTTP server: the SPA from `distDir` (any unknown page path gets index.html, so
 * client-side routes survive a reload) and the ledger's paths, websockets included, proxied.
 */
export function createServer({
  distDir,
  ledgerUrl,
  extraProxyPrefixes = [],
}: CreateServerOptions): http.Server {
  const proxy = createLedgerProxy(ledgerUrl);
  const prefixes = [...LEDGER_PATH_PREFIXES, ...extraProxyPrefixes];
  const isLedgerPath = (url: string | undefined) => {
    const pathname = (url ?? '/').split('?')[0] ?? '/';
    return prefixes.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
  };

  const assetsDir = path.join(distDir, 'assets');
  // Vite fingerprints everything in assets/, so it may be cached forever; index.html never is.
  const setHeaders = (res: ServerResponse, pathname: string) => {
    res.setHeader(
      'Cache-Control',
      pathname.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
    );
  };
  // A missing asset is a 404, never index.html: a stale tab asking for an old chunk must fail
  // loudly rather than parse HTML as JavaScript.
  const serveAsset = sirv(assetsDir, { dev: false, etag: true, setHeaders: prefixed(setHeaders) });
  // `ignores: false`: page paths may contain dots (user ids like alice.smith) and still need the
  // SPA fallback, which sirv otherwise skips for anything that looks like a file name.
  const serveSpa = sirv(distDir, {
    dev: false,
    etag: true,
    single: true,
    ignores: false,
    setHeaders,
  });

  const server = http.createServer((req: IncomingMessage, res: ServerResponse) => {
    if (isLedgerPath(req.url)) {
      proxy.handleRequest(req, res);
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Method Not Allowed');
      return;
    }
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Referrer-Policy', 'no-referrer');
    const url = req.url ?? '/';
    if (url.startsWith('/assets/')) {
      req.url = url.slice('/assets'.length);
      serveAsset(req, res, () => {
        notFound(res);
      });
      return;
    }
    serveSpa(req, res, () => {
      notFound(res);
    });
  });

  server.on('upgrade', (req: IncomingMessage, socket, head: Buffer) => {
    if (isLedgerPath(req.url)) {
      proxy.handleUpgrade(req, socket, head);
      return;
    }
    socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
  });

  server.on('close', () => {
    proxy.close();
  });
  proxies.set(server, proxy);
  return server;
}

/**
 * Stops accepting connections and ends the open ones, websocket tunnels included, which
 * `server.close()` alone would wait for indefinitely.
 */
export async function closeServer(server: http.Server): Promise<void> {
  const closed = new Promise<void>((resolve, reject) => {
    server.close((error) => {
      if (error) reject(error);
      else resolve();
    });
  });
  proxies.get(server)?.close();
  server.closeAllConnections();
  await closed;
}

function prefixed(setHeaders: (res: ServerResponse, pathname: string) => void) {
  return (res: ServerResponse, pathname: string) => {
    setHeaders(res, `/assets${pathname}`);
  };
}

function notFound(res: ServerResponse): void {
  res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
  res.end('Not Found');
}
