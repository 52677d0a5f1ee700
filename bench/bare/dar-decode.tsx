/**
 * The Daml-LF decode limit (issue 29): one Web Worker (dar-decode-worker.tsx) decodes the same DAR
 * and the same package payload with the console's decoder and with a bare schema-less protobuf
 * walk, alternately; `__darDecodeTimes(request)` returns both series in ms.
 */
import { askWorker } from './ask-worker';
import type { DarDecodeRequest, DarDecodeTimes } from './dar-decode-worker';

const worker = new Worker(new URL('./dar-decode-worker.tsx', import.meta.url), { type: 'module' });

Object.assign(window, {
  __darDecodeTimes: (request: DarDecodeRequest) => askWorker<DarDecodeTimes>(worker, request),
});
