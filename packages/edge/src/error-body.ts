/**
 * The JsCantonError body, with the 10 keys in the order the real server prints them
 * (ledger-api-behaviour.md §1.1). The sandbox renders its errors in it, and the console server
 * answers in it too (the guard's refusals, its own limits), so the SPA reads all of them alike.
 */
export type JsCantonErrorBody = {
  code: string;
  cause: string;
  correlationId: string | null;
  traceId: string | null;
  context: Record<string, string>;
  resources: [string, string][];
  errorCategory: number;
  grpcCodeValue: number | null;
  retryInfo: string | null;
  definiteAnswer: boolean | null;
};
