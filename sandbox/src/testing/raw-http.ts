import { connect } from 'node:net';

/**
 * Sends `head` (and optionally more) over a raw socket and resolves with the first complete
 * response read back, without waiting for the server to close the connection.
 */
export function rawExchange(url: string, head: string, { timeoutMs = 3000 } = {}) {
  const { hostname, port } = new URL(url);
  return new Promise<{ response: string; elapsedMs: number }>((resolve, reject) => {
    const started = performance.now();
    const socket = connect(Number(port), hostname);
    let response = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete answer within ${String(timeoutMs)} ms: ${response}`));
    }, timeoutMs);
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ response, elapsedMs: performance.now() - started });
    };
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      response += chunk;
      const headEnd = response.indexOf('\r\n\r\n');
      if (headEnd < 0) return;
      const length = /\r\ncontent-length: *(\d+)/i.exec(response.slice(0, headEnd));
      const body = response.slice(headEnd + 4);
      if (length ? Buffer.byteLength(body) >= Number(length[1]) : body.endsWith('0\r\n\r\n')) {
        finish();
      }
    });
    socket.on('close', finish);
    socket.on('error', () => undefined);
    socket.write(head);
  });
}

/** The body of a raw HTTP response. */
export const bodyOf = (response: string) => response.slice(response.indexOf('\r\n\r\n') + 4);
