/**
 * The Daml-LF decode limit (issue 29): one Web Worker (dar-decode-worker.tsx) decodes the same DAR
 * and the same package payload with the console's decoder and with a bare schema-less protobuf
 * walk, alternately; `__darDecodeTimes(request)` returns both series in ms.
 */
import type { DarDecodeRequest, DarDecodeTimes } from './dar-decode-worker';

const worker = new Worker(new URL('./dar-decode-worker.tsx', import.meta.url), { type: 'module' });

Object.assign(window, {
  __darDecodeTimes: (request: DarDecodeRequest) =>
    new Promise<DarDecodeTimes>((resolve, reject) => {
      worker.addEventListener(
        'message',
        (event: MessageEvent<DarDecodeTimes>) => {
          resolve(event.data);
        },
        { once: true },
      );
      worker.addEventListener(
        'error',
        (event) => {
          reject(new Error(event.message));
        },
        { once: true },
      );
      worker.postMessage(request);
    }),
});
