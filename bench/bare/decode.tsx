/**
 * The composer Preview's decode limit (issue 29): one Web Worker (decode-worker.tsx) decodes the
 * same prepare answer with the console's decoder and with the bare Canton bindings, alternately;
 * `__decodeTimes(answer, runs)` returns both series in ms.
 */
import { askWorker } from './ask-worker';
import type { DecodeTimes, DecodeTimesRequest } from './decode-worker';

const worker = new Worker(new URL('./decode-worker.tsx', import.meta.url), { type: 'module' });

Object.assign(window, {
  __decodeTimes: (request: DecodeTimesRequest) => askWorker<DecodeTimes>(worker, request),
});
