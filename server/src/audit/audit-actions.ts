import type { AuditAction } from '@ledger-console/edge/console-api';

/**
 * Which proxied calls the audit log records, and as what (ADR 020). Decided from the JSON Ledger
 * API's OpenAPI document (/work/shared/spec/openapi.yaml of Canton 3.5): every call that changes
 * the participant's or the ledger's state is recorded; the POSTs that only read (queries with a
 * body) are listed in READ_ONLY_POSTS and are not. A non-GET call the console does not know — a
 * newer API's endpoint, a typo, an odd path — is recorded as `other`: an audit log that misses
 * a change is worse than one with an entry too many.
 */

/** POST endpoints that read or compute without changing anything on the participant. */
export const READ_ONLY_POSTS: readonly string[] = [
  '/v2/commands/completions',
  '/v2/commands/command-completions',
  '/v2/events/events-by-contract-id',
  '/v2/contracts/contract-by-id',
  // "no effect on the state of the participant or the Canton ledger" (its own description).
  '/v2/dars/validate',
  '/v2/package-vetting/list',
  // Builds topology transactions for the caller to sign; nothing is stored until allocate.
  '/v2/parties/external/generate-topology',
  '/v2/interactive-submission/preferred-packages',
  '/v2/state/active-contracts',
  '/v2/updates',
  '/v2/updates/flats',
  '/v2/updates/trees',
  '/v2/updates/transaction-by-offset',
  '/v2/updates/update-by-offset',
  '/v2/updates/transaction-by-id',
  '/v2/updates/update-by-id',
  '/v2/updates/update-by-hash',
  '/v2/updates/get-updates-page',
];

/** Methods that never change state (RFC 9110 §9.2.1 safe methods). */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export type ClassifiedCall = {
  action: AuditAction;
  /** The resource the path names (already decoded), or null; the body may name one instead. */
  pathResource: string | null;
};

type Rule = {
  method: string;
  /** Matched against the path without its query and trailing slashes. */
  pattern: RegExp;
  action: AuditAction;
};

const SEGMENT = '([^/]+)';
const rule = (method: string, path: string, action: AuditAction): Rule => ({
  method,
  pattern: new RegExp(`^${path.replace('{id}', SEGMENT)}$`),
  action,
});

const RULES: readonly Rule[] = [
  rule('POST', '/v2/users', 'user.create'),
  rule('PATCH', '/v2/users/{id}', 'user.update'),
  rule('DELETE', '/v2/users/{id}', 'user.delete'),
  rule('POST', '/v2/users/{id}/rights', 'user.rights.grant'),
  rule('PATCH', '/v2/users/{id}/rights', 'user.rights.revoke'),
  rule('PATCH', '/v2/users/{id}/identity-provider-id', 'user.idp.move'),
  rule('POST', '/v2/parties', 'party.allocate'),
  rule('POST', '/v2/parties/external/allocate', 'party.external.allocate'),
  rule('PATCH', '/v2/parties/{id}', 'party.update'),
  rule('POST', '/v2/idps', 'idp.create'),
  rule('PATCH', '/v2/idps/{id}', 'idp.update'),
  rule('DELETE', '/v2/idps/{id}', 'idp.delete'),
  rule('POST', '/v2/dars', 'dar.upload'),
  rule('POST', '/v2/packages', 'dar.upload'),
  rule('POST', '/v2/package-vetting/update', 'package.vetting'),
  // Deprecated twin of /update (its own description), still served.
  rule('POST', '/v2/package-vetting', 'package.vetting'),
  rule('POST', '/v2/commands/submit-and-wait', 'command.submit'),
  rule('POST', '/v2/commands/submit-and-wait-for-transaction', 'command.submit'),
  rule('POST', '/v2/commands/submit-and-wait-for-transaction-tree', 'command.submit'),
  rule('POST', '/v2/commands/async/submit', 'command.submit'),
  rule('POST', '/v2/commands/submit-and-wait-for-reassignment', 'command.reassign'),
  rule('POST', '/v2/commands/async/submit-reassignment', 'command.reassign'),
  // Prepare changes nothing yet, but it is the first half of an externally signed submission:
  // without it, an execute's entry could not be told from one whose preparation nobody saw.
  rule('POST', '/v2/interactive-submission/prepare', 'command.prepare'),
  rule('POST', '/v2/interactive-submission/execute', 'command.execute'),
  rule('POST', '/v2/interactive-submission/executeAndWait', 'command.execute'),
  rule('POST', '/v2/interactive-submission/executeAndWaitForTransaction', 'command.execute'),
];

/**
 * What a proxied call is for the audit log, or undefined when it is not recorded (a read).
 * `pathname` is the path as received, without the query.
 */
export function classifyCall(method: string, pathname: string): ClassifiedCall | undefined {
  const upper = method.toUpperCase();
  if (SAFE_METHODS.has(upper)) return undefined;
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if (upper === 'POST' && READ_ONLY_POSTS.includes(path)) return undefined;
  for (const { method: ruleMethod, pattern, action } of RULES) {
    if (ruleMethod !== upper) continue;
    const match = pattern.exec(path);
    if (match) return { action, pathResource: decodeSegment(match[1]) };
  }
  return { action: 'other', pathResource: null };
}

/** A path segment as the participant reads it; kept as sent when it is not valid percent-encoding. */
function decodeSegment(segment: string | undefined): string | null {
  if (segment === undefined) return null;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
