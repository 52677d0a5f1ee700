import type { IncomingMessage } from 'node:http';
import type { AuditActor, AuditEntry } from '@ledger-console/edge/console-api';
import type { CallOutcome, ObservedCall } from '../ledger-proxy';
import { classifyCall, type ClassifiedCall } from './audit-actions';
import { bearerToken, decodeClaims, ParticipantName, TokenUsers } from './audit-actor';
import { DEFAULT_AUDIT_RETENTION, type AuditStoreLocation } from './audit-location';
import {
  AuditStore,
  type AuditFilter,
  type AuditReadScope,
  type AuditRecord,
  type AuditRetention,
} from './audit-store';
import { BodyCapture, bounded, summarizeBody } from './audit-summary';

/**
 * The console's shared audit log (ADR 020): records every state-changing call the proxy forwards,
 * after the participant answered, and holds that answer back until the entry is committed — for
 * at most `commitWaitMs`. A store that fails or is slow never holds a call longer, and never
 * loses its entry while the console runs: the entry waits in a bounded queue and is written again
 * until the store takes it; `/readyz` says so meanwhile.
 */

/** The longest a proxied call's answer waits for its entry to be committed. */
export const DEFAULT_COMMIT_WAIT_MS = 2000;
/** Entries kept in memory while the store does not take them. */
export const DEFAULT_MAX_QUEUED = 10_000;
const DEFAULT_PRUNE_INTERVAL_MS = 60 * 60 * 1000;
/** Entries written per transaction: group commit under a burst. */
const MAX_BATCH = 500;
const RETRY_MIN_MS = 250;
const RETRY_MAX_MS = 30_000;
const MAX_PATH_CHARS = 512;
const MAX_RESOURCE_CHARS = 256;
const MAX_ERROR_CODE_CHARS = 128;
const MAX_REASON_CHARS = 300;

export type AuditLogOptions = {
  location: AuditStoreLocation;
  retention?: AuditRetention;
  commitWaitMs?: number;
  maxQueued?: number;
  pruneIntervalMs?: number;
  retryMinMs?: number;
  now?: () => number;
  /** Where the log tells the operator that its store failed, recovered, or dropped entries. */
  warn?: (line: string) => void;
};

export type AuditHealth =
  { ok: true } | { ok: false; reason: string; waiting: number; dropped: number };

type Pending = { record: AuditRecord; done: (committed: boolean) => void };

/** A participant the console proxies: its name in the console and its URL as the proxy reaches it. */
export type AuditedParticipant = { name: string; ledgerUrl: URL };

/** What the log asks one participant: who a token stands for, and the participant's id. */
type ParticipantLookups = { users: TokenUsers; id: ParticipantName };

export class AuditLog {
  readonly retention: AuditRetention;
  readonly storeKind: AuditStoreLocation['kind'];
  private store: AuditStore | undefined;
  private readonly queue: Pending[] = [];
  private writing = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private retryDelayMs: number;
  private failure: string | undefined;
  private dropped = 0;
  private closed = false;
  private readonly pruneTimer: NodeJS.Timeout;
  /** Per participant name: user ids and IdPs are the participant's own, never shared. */
  private readonly lookups = new Map<string, ParticipantLookups>();
  private readonly now: () => number;
  private readonly commitWaitMs: number;
  private readonly maxQueued: number;
  private readonly retryMinMs: number;

  constructor(private readonly options: AuditLogOptions) {
    this.retention = options.retention ?? DEFAULT_AUDIT_RETENTION;
    this.storeKind = options.location.kind;
    this.now = options.now ?? Date.now;
    this.commitWaitMs = options.commitWaitMs ?? DEFAULT_COMMIT_WAIT_MS;
    this.maxQueued = options.maxQueued ?? DEFAULT_MAX_QUEUED;
    this.retryMinMs = options.retryMinMs ?? RETRY_MIN_MS;
    this.retryDelayMs = this.retryMinMs;
    this.pruneTimer = setInterval(() => {
      void this.prune();
    }, options.pruneIntervalMs ?? DEFAULT_PRUNE_INTERVAL_MS);
    this.pruneTimer.unref();
  }

  /** Opens the store and prunes it; a store that fails stays in the log's health, never throws. */
  async start(): Promise<void> {
    await this.prune();
  }

  /** Whether the store takes entries; what `/readyz` reports. */
  health(): AuditHealth {
    // Ready again once the store takes entries: a replica must not stay out of rotation for
    // good because of an outage it has recovered from; the drop count shows while it lasts.
    if (this.failure === undefined) return { ok: true };
    return {
      ok: false,
      reason: this.failure,
      waiting: this.queue.length,
      dropped: this.dropped,
    };
  }

  /**
   * Queues an entry; resolves true once it is committed, false when the store failed or took
   * longer than the commit wait (the entry stays queued and is written when the store takes it).
   */
  append(record: AuditRecord): Promise<boolean> {
    if (this.closed) return Promise.resolve(false);
    if (this.queue.length >= this.maxQueued) {
      // Bounded memory: past the bound an entry is lost, and /readyz says how many.
      if (this.dropped === 0) {
        this.options.warn?.(
          `Audit log: ${String(this.maxQueued)} entries wait for the store; further entries are dropped until it works again.`,
        );
      }
      this.dropped += 1;
      return Promise.resolve(false);
    }
    return new Promise<boolean>((resolve) => {
      let answered = false;
      const done = (committed: boolean) => {
        if (answered) return;
        answered = true;
        clearTimeout(timer);
        resolve(committed);
      };
      const timer = setTimeout(() => {
        done(false);
      }, this.commitWaitMs);
      this.queue.push({ record, done });
      // A failing store is not waited for: the answer goes now, the entry waits for the retry.
      if (this.failure !== undefined) done(false);
      this.kick();
    });
  }

  /** Reads a page, newest first (the AuditPage's entries and whether more follow). */
  async read(
    scope: AuditReadScope,
    filter: AuditFilter,
    limit: number,
  ): Promise<{ entries: AuditEntry[]; more: boolean }> {
    const store = await this.openStore();
    return store.page(scope, filter, limit);
  }

  /**
   * Watches one call proxied to `participant`, or undefined for calls that are not recorded
   * (reads). `req.url` is the path as the participant gets it, without the console's prefix.
   */
  observe(req: IncomingMessage, participant: AuditedParticipant): ObservedCall | undefined {
    const method = (req.method ?? 'GET').toUpperCase();
    const pathname = (req.url ?? '/').split('?')[0] ?? '/';
    const call = classifyCall(method, pathname);
    if (call === undefined) return undefined;
    const started = this.now();
    const authorization = req.headers.authorization;
    const token = bearerToken(authorization);
    const claims = token === undefined ? undefined : decodeClaims(token);
    // Asked while the participant works on the call: the answer is held only for the commit.
    const lookups = this.lookupsOf(participant);
    const user =
      token === undefined || claims === undefined
        ? Promise.resolve(null)
        : lookups.users.userOf(token, claims);
    const participantId = lookups.id.current(authorization);
    const capture = new BodyCapture(call.action === 'dar.upload' ? 'dar' : 'json');
    return {
      body: (chunk) => {
        capture.add(chunk);
      },
      settle: async (outcome) => {
        try {
          const accepted = token !== undefined && outcome.status !== 0 && outcome.status !== 401;
          const found = accepted ? await user : null;
          const actor: AuditActor = {
            issuer: accepted ? (claims?.issuer ?? null) : null,
            subject: accepted ? (claims?.subject ?? null) : null,
            userId: found?.userId ?? null,
            identityProviderId: found?.identityProviderId ?? null,
            authenticated: accepted,
          };
          const { summary, parsed } = summarizeBody(capture);
          const answered = this.now();
          await this.append({
            at: new Date(answered).toISOString(),
            participant: await participantId,
            participantName: participant.name,
            actor,
            action: call.action,
            method: method.slice(0, 16),
            path: bounded(pathname, MAX_PATH_CHARS),
            resource: resourceOf(call, parsed, outcome),
            summary,
            status: outcome.status,
            errorCode: errorCodeOf(outcome),
            durationMs: answered - started,
          });
        } catch {
          // Recording never stands between a client and its answer.
        }
      },
    };
  }

  /** Stops timers, writes what is queued (within the commit wait), closes the store. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.pruneTimer);
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    const deadline = this.now() + this.commitWaitMs;
    while (this.queue.length > 0 && this.failure === undefined && this.now() < deadline) {
      if (!this.writing) void this.flush();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    while (this.writing && this.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    this.store?.close();
    this.store = undefined;
  }

  private lookupsOf({ name, ledgerUrl }: AuditedParticipant): ParticipantLookups {
    let lookups = this.lookups.get(name);
    if (lookups === undefined) {
      lookups = { users: new TokenUsers(ledgerUrl, this.now), id: new ParticipantName(ledgerUrl) };
      this.lookups.set(name, lookups);
    }
    return lookups;
  }

  private async openStore(): Promise<AuditStore> {
    this.store ??= await AuditStore.open(this.options.location);
    return this.store;
  }

  private kick(): void {
    if (this.writing || this.retryTimer !== undefined) return;
    void this.flush();
  }

  /** Writes the queue in batches until it is empty or the store fails. */
  private async flush(): Promise<void> {
    this.writing = true;
    try {
      // Even with nothing queued: a retry after a failure proves the store works again.
      do {
        const batch = this.queue.slice(0, MAX_BATCH);
        const store = await this.openStore();
        await store.append(batch.map((pending) => pending.record));
        this.queue.splice(0, batch.length);
        for (const pending of batch) pending.done(true);
        if (this.failure !== undefined) {
          this.options.warn?.(
            `Audit log: the store works again; queued entries are written (${String(this.dropped)} dropped since start).`,
          );
        }
        this.failure = undefined;
        this.retryDelayMs = this.retryMinMs;
      } while (this.queue.length > 0);
    } catch (error) {
      this.fail(error);
    } finally {
      this.writing = false;
    }
  }

  private fail(error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    const first = this.failure === undefined;
    this.failure = bounded(
      message.replace(/\s+/g, ' ').trim() || 'unknown error',
      MAX_REASON_CHARS,
    );
    if (first) {
      this.options.warn?.(
        `Audit log: the store fails (${this.failure}); calls are answered and their entries kept in memory until it works again.`,
      );
    }
    for (const pending of this.queue) pending.done(false);
    // A broken connection may never work again: the next attempt opens a new one.
    try {
      this.store?.close();
    } catch {
      // Already unusable.
    }
    this.store = undefined;
    if (this.closed) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.flush();
    }, this.retryDelayMs);
    this.retryTimer.unref();
    this.retryDelayMs = Math.min(this.retryDelayMs * 2, RETRY_MAX_MS);
  }

  private async prune(): Promise<void> {
    try {
      const store = await this.openStore();
      await store.prune(this.retention, this.now());
      if (this.failure !== undefined) this.kick();
    } catch (error) {
      if (this.retryTimer === undefined && !this.writing) this.fail(error);
    }
  }
}

function resourceOf(call: ClassifiedCall, body: unknown, outcome: CallOutcome): string | null {
  const field = (value: unknown, ...names: string[]): unknown => {
    let current = value;
    for (const name of names) {
      if (typeof current !== 'object' || current === null) return undefined;
      current = (current as Record<string, unknown>)[name];
    }
    return current;
  };
  let answer: unknown;
  if (outcome.complete && outcome.answer.length > 0) {
    try {
      answer = JSON.parse(outcome.answer.toString('utf8'));
    } catch {
      answer = undefined;
    }
  }
  const candidates: unknown[] = (() => {
    switch (call.action) {
      case 'user.create':
        return [field(body, 'user', 'id')];
      case 'party.allocate':
        return [field(answer, 'partyDetails', 'party'), field(body, 'partyIdHint')];
      case 'party.external.allocate':
        return [field(answer, 'partyId')];
      case 'idp.create':
        return [field(body, 'identityProviderConfig', 'identityProviderId')];
      case 'command.submit':
      case 'command.prepare':
        return [field(body, 'commandId'), field(body, 'commands', 'commandId')];
      case 'command.reassign':
        return [
          field(body, 'reassignmentCommands', 'commandId'),
          field(body, 'commandId'),
          field(body, 'reassignmentCommands', 'reassignmentCommands', 'commandId'),
        ];
      case 'command.execute':
        return [field(body, 'submissionId')];
      default:
        return [];
    }
  })();
  const found = [call.pathResource, ...candidates].find(
    (value): value is string => typeof value === 'string' && value !== '',
  );
  return found === undefined ? null : bounded(found, MAX_RESOURCE_CHARS);
}

function errorCodeOf(outcome: CallOutcome): string | null {
  if (outcome.consoleErrorCode !== undefined) return outcome.consoleErrorCode;
  if (outcome.status >= 200 && outcome.status < 400) return null;
  if (!outcome.complete) return null;
  try {
    const body: unknown = JSON.parse(outcome.answer.toString('utf8'));
    const code = (body as { code?: unknown } | null)?.code;
    return typeof code === 'string' ? bounded(code, MAX_ERROR_CODE_CHARS) : null;
  } catch {
    return null;
  }
}

/** Creates the log and opens (and prunes) its store; a failing store shows in `health()`. */
export async function createAuditLog(options: AuditLogOptions): Promise<AuditLog> {
  const log = new AuditLog(options);
  await log.start();
  return log;
}
