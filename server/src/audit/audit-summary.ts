import { createHash, type Hash } from 'node:crypto';

/**
 * The redacted, bounded summary of a request body that an audit entry keeps (ADR 020). It names
 * what a call was about (ids, hints, rights, flags) and never what would let a reader act as
 * someone: tokens, secrets, keys, signatures, prepared transactions and topology transactions
 * become their size. DAR uploads become their size and a SHA-256 prefix.
 */

/** Longest summary stored. */
export const MAX_SUMMARY_CHARS = 1000;
/** JSON bodies up to this size are parsed for the summary; larger ones are described by size. */
export const MAX_PARSED_BYTES = 1024 * 1024;
/** Nesting below this depth is shown as `{…}` / `[…]`. */
const MAX_DEPTH = 4;
const MAX_ARRAY_ITEMS = 10;
const MAX_OBJECT_KEYS = 20;
const MAX_STRING_CHARS = 120;
const MAX_KEY_CHARS = 60;

/**
 * Field names whose values are secrets or signed material, by exact name (lower-cased). Besides
 * these, any name ending in one of SECRET_SUFFIXES is redacted.
 */
const SECRET_NAMES = new Set([
  'token',
  'jwt',
  'secret',
  'password',
  'authorization',
  'credentials',
  'key',
  'keys',
  'publickey',
  'privatekey',
  'signature',
  'signatures',
  'preparedtransaction',
  'preparedtransactionhash',
  'onboardingtransactions',
  'transaction',
  'transactions',
  'multihashsignatures',
  'partysignatures',
  // The DER/base64 payload of a topology transaction or a public key.
  'serializedtransaction',
  'der',
  'blob',
]);
const SECRET_SUFFIXES = ['token', 'secret', 'password', 'signature', 'signatures', 'key'];

export function isSecretField(name: string): boolean {
  const lower = name.toLowerCase();
  return SECRET_NAMES.has(lower) || SECRET_SUFFIXES.some((suffix) => lower.endsWith(suffix));
}

/**
 * Collects what the summary needs while the body streams to the participant: the first
 * MAX_PARSED_BYTES (for JSON), the total size, and for DARs a SHA-256 of the whole body.
 */
export class BodyCapture {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  size = 0;
  private readonly hash: Hash | undefined;

  constructor(readonly kind: 'json' | 'dar') {
    this.hash = kind === 'dar' ? createHash('sha256') : undefined;
  }

  add(chunk: Buffer): void {
    this.size += chunk.length;
    this.hash?.update(chunk);
    if (this.kind !== 'json' || this.kept > MAX_PARSED_BYTES) return;
    this.kept += chunk.length;
    // Past the bound nothing is parsed, so nothing need be kept.
    if (this.kept > MAX_PARSED_BYTES) this.chunks.length = 0;
    else this.chunks.push(chunk);
  }

  /** The body, if whole and small enough to parse. */
  text(): string | undefined {
    if (this.kind !== 'json' || this.kept > MAX_PARSED_BYTES) return undefined;
    return Buffer.concat(this.chunks).toString('utf8');
  }

  sha256(): string | undefined {
    return this.hash?.digest('hex');
  }
}

/** The summary of a body, from what BodyCapture kept; `parsed` is the JSON value when it parsed. */
export function summarizeBody(capture: BodyCapture): { summary: string; parsed: unknown } {
  if (capture.size === 0) return { summary: '', parsed: undefined };
  if (capture.kind === 'dar') {
    const digest = capture.sha256() ?? '';
    return {
      summary: `DAR of ${formatBytes(capture.size)}, sha256 ${digest.slice(0, 16)}…`,
      parsed: undefined,
    };
  }
  const text = capture.text();
  if (text === undefined) {
    return { summary: `body of ${formatBytes(capture.size)}, not summarised`, parsed: undefined };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { summary: `body of ${formatBytes(capture.size)}, not JSON`, parsed: undefined };
  }
  return { summary: bounded(render(parsed, 0)), parsed };
}

function render(value: unknown, depth: number): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'number') {
    return String(value);
  }
  if (typeof value === 'string') return renderString(value);
  if (Array.isArray(value)) {
    if (depth >= MAX_DEPTH) return `[…${String(value.length)}]`;
    const items = value.slice(0, MAX_ARRAY_ITEMS).map((item) => render(item, depth + 1));
    if (value.length > MAX_ARRAY_ITEMS) items.push(`…+${String(value.length - MAX_ARRAY_ITEMS)}`);
    return `[${items.join(',')}]`;
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (depth >= MAX_DEPTH) return entries.length === 0 ? '{}' : '{…}';
    const shown = entries.slice(0, MAX_OBJECT_KEYS).map(([name, field]) => {
      const label = JSON.stringify(name.slice(0, MAX_KEY_CHARS));
      return `${label}:${isSecretField(name) ? redacted(field) : render(field, depth + 1)}`;
    });
    if (entries.length > MAX_OBJECT_KEYS) {
      shown.push(`…+${String(entries.length - MAX_OBJECT_KEYS)}`);
    }
    return `{${shown.join(',')}}`;
  }
  return '?';
}

/** What stands in for a secret: its size only, so a reader sees that one was sent. */
function redacted(value: unknown): string {
  if (value === null || value === undefined || value === '') return JSON.stringify(value ?? null);
  const size =
    typeof value === 'string'
      ? value.length
      : (JSON.stringify(value) as string | undefined)?.length;
  return `"<redacted, ${String(size ?? 0)} chars>"`;
}

/**
 * A JWT (header.payload.signature, base64url; the header always starts `{"`, i.e. `eyJ`) under any
 * field name is a token all the same.
 */
const JWT_SHAPE = /^eyJ[\w-]*\.[\w-]+\.[\w-]*$/;

function renderString(value: string): string {
  if (JWT_SHAPE.test(value)) return redacted(value);
  if (value.length <= MAX_STRING_CHARS) return JSON.stringify(value);
  return JSON.stringify(`${value.slice(0, MAX_STRING_CHARS)}…(${String(value.length)} chars)`);
}

/** Cuts a summary to MAX_SUMMARY_CHARS, saying so. */
export function bounded(text: string, max = MAX_SUMMARY_CHARS): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${String(bytes)} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}
