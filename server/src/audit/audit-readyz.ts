import type { IncomingMessage, ServerResponse } from 'node:http';
import { participantGet } from '../participant-caller';
import type { AuditHealth } from './audit-log';

/** Time allowed for the participant's own readiness answer. */
const READYZ_TIMEOUT_MS = 5000;
/** The participant's checks are a few lines; more is not a readiness answer. */
const MAX_CHECK_LINES = 20;

/**
 * `GET /readyz` while the audit log does not take entries (ADR 020): the participant's own checks
 * in its format (ledger-api-behaviour.md §9: `[+] name ok (…)` / `[-] name failed (…)`, then a
 * verdict line), with the console's audit check added, and 503 — a load balancer then sends the
 * team to a replica whose log works, and an operator sees why.
 */
export function readyzText(participantChecks: readonly string[], health: AuditHealth): string {
  if (health.ok) return '';
  const parts = [`${String(health.waiting)} entries waiting to be written`];
  if (health.dropped > 0) parts.push(`${String(health.dropped)} dropped since start`);
  return [
    ...participantChecks,
    `[-] console audit log failing: ${health.reason} (${parts.join(', ')})`,
    'readyz check failed',
    '',
  ].join('\n');
}

/** The checks of a participant's readyz body, without its verdict line. */
export function checksOf(body: string): string[] {
  return body
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => /^\[[+-]\] /.test(line))
    .slice(0, MAX_CHECK_LINES)
    .map((line) => line.slice(0, 300));
}

export async function answerReadyz(
  req: IncomingMessage,
  res: ServerResponse,
  ledgerUrl: URL,
  health: AuditHealth,
): Promise<void> {
  let checks: string[];
  try {
    const answer = await participantGet(ledgerUrl, '/readyz', undefined, READYZ_TIMEOUT_MS);
    checks = checksOf(answer.text);
    if (checks.length === 0) checks = [`[-] ledger failed (answered ${String(answer.status)})`];
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    checks = [`[-] ledger failed (unreachable: ${reason.slice(0, 200)})`];
  }
  const text = readyzText(checks, health);
  res.writeHead(503, {
    'Content-Type': 'text/plain; charset=UTF-8',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
  });
  res.end(req.method === 'HEAD' ? undefined : text);
  req.resume();
}
