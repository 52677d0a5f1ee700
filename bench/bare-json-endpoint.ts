/**
 * The sandbox benchmark's limit (issue 29): a bare Hono endpoint on @hono/node-server, the stack
 * the sandbox is served by, doing nothing but the JSON round trip of each measured request. It
 * answers the sandbox's own paths, reads every request body with `await c.req.json()`, and answers
 * with a real sandbox answer of that kind, captured by the benchmark in the same run and kept
 * parsed, so every answer pays JSON.stringify as the sandbox's does. No guard, no validation, no
 * ledger: what is left is what any server on this machine pays for the same bytes.
 *
 *   node --import tsx bench/bare-json-endpoint.ts --port 0     # prints "listening on http://…"
 */
import { parseArgs } from 'node:util';
import { serve } from '@hono/node-server';
import { Hono, type Context } from 'hono';

/** The kinds of request the benchmark measures; the benchmark sends one captured answer each. */
const BARE_KINDS = [
  'create-user',
  'users-page',
  'grant',
  'create',
  'tree',
  'prepare',
  'execute',
] as const;
export type BareKind = (typeof BARE_KINDS)[number];

const { values } = parseArgs({ options: { port: { type: 'string', default: '0' } } });

const answers = new Map<BareKind, unknown>();
const app = new Hono();

const isKind = (kind: string): kind is BareKind => (BARE_KINDS as readonly string[]).includes(kind);

app.put('/bare/answers/:kind', async (c) => {
  const kind = c.req.param('kind');
  if (!isKind(kind)) return c.text(`unknown kind ${kind}`, 404);
  answers.set(kind, await c.req.json());
  return c.json({ kind });
});

/** Answers `kind`'s captured answer; a 500 when the benchmark never sent it, so it fails loudly. */
function answer(c: Context, kind: BareKind) {
  const captured = answers.get(kind);
  if (captured === undefined) return c.text(`no answer captured for ${kind}`, 500);
  return c.json(captured);
}

const roundTrip = (kind: BareKind) => async (c: Context) => {
  await c.req.json();
  return answer(c, kind);
};

app.post('/v2/users', roundTrip('create-user'));
app.get('/v2/users', (c) => answer(c, 'users-page'));
app.post('/v2/users/:userId/rights', roundTrip('grant'));
app.post('/v2/commands/submit-and-wait', roundTrip('create'));
app.post('/v2/commands/submit-and-wait-for-transaction-tree', roundTrip('tree'));
app.post('/v2/interactive-submission/prepare', roundTrip('prepare'));
app.post('/v2/interactive-submission/executeAndWait', roundTrip('execute'));

const server = serve(
  { fetch: app.fetch, port: Number(values.port), hostname: '127.0.0.1' },
  (info) => {
    console.log(`Bare JSON endpoint listening on http://127.0.0.1:${String(info.port)}`);
  },
);
const stop = () => {
  server.close(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
