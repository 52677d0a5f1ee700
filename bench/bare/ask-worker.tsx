/** One request to a bench worker and its one answer (the bench pages send one at a time). */
export function askWorker<Answer>(worker: Worker, request: unknown): Promise<Answer> {
  return new Promise<Answer>((resolve, reject) => {
    worker.addEventListener(
      'message',
      (event: MessageEvent<Answer>) => {
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
  });
}
