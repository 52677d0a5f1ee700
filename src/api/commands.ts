import { mutationOptions } from '@tanstack/react-query';
import { env } from '@/env';
import { isEndpointMissing } from '@/lib/errors/api-error';
import type { LedgerApiRequest } from '@/lib/text/copy-as';
import type { TransactionTree } from '@/lib/transaction-tree/model';
import { api, unwrap } from './client';
import type { Schemas } from './schema';
import { fromLedgerEffectsTransaction, fromTransactionTree } from './transaction-tree-builder';
import { updateQueries } from './updates';

/** A composite command as the JSON API takes it (ledger-api-behaviour.md §7.1). */
export type JsCommands = Schemas['JsCommands'];
export type LedgerCommand = Schemas['Command'];
export type DisclosedContract = Schemas['DisclosedContract'];
export type DeduplicationPeriod = NonNullable<JsCommands['deduplicationPeriod']>;

/** Which endpoint produced a submission's tree. */
export type SubmitEndpoint = 'transaction-tree' | 'transaction';

export type SubmitResult = {
  tree: TransactionTree;
  endpoint: SubmitEndpoint;
};

export const TREE_ENDPOINT = '/v2/commands/submit-and-wait-for-transaction-tree';
export const TRANSACTION_ENDPOINT = '/v2/commands/submit-and-wait-for-transaction';

/**
 * Where the deprecated tree endpoint was found missing, remembered for the browser session
 * (sessionStorage), so later submits go straight to its successor instead of failing first.
 */
const TREE_ENDPOINT_GONE_KEY = 'ledger-console.submit.tree-endpoint-gone';

function treeEndpointGone(): boolean {
  try {
    return globalThis.sessionStorage.getItem(TREE_ENDPOINT_GONE_KEY) === 'true';
  } catch {
    return false;
  }
}

function rememberTreeEndpointGone(): void {
  try {
    globalThis.sessionStorage.setItem(TREE_ENDPOINT_GONE_KEY, 'true');
  } catch {
    // Storage refused (private mode): the next submit tries the tree endpoint again, no harm.
  }
}

/**
 * What `submit-and-wait-for-transaction` should return so that the same tree comes back as from
 * the tree endpoint: LEDGER_EFFECTS (exercises with their node ranges), every event of the given
 * parties, verbose.
 */
export function ledgerEffectsFormat(
  parties: readonly string[],
): Schemas['JsSubmitAndWaitForTransactionRequest']['transactionFormat'] {
  const filtersByParty: Record<string, Schemas['Filters']> = {};
  for (const party of parties) {
    filtersByParty[party] = {
      cumulative: [
        {
          identifierFilter: {
            WildcardFilter: { value: { includeCreatedEventBlob: false } },
          },
        },
      ],
    };
  }
  return {
    eventFormat: { filtersByParty, verbose: true },
    transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS',
  };
}

/** The body for `submit-and-wait-for-transaction`, as sent (also for "copy as curl"). */
export function transactionRequestBody(
  commands: JsCommands,
): Schemas['JsSubmitAndWaitForTransactionRequest'] {
  // The tree endpoint projects onto the actAs parties only, not readAs (§7.3); asking for more
  // would change the witnesses and could show events the tree endpoint would not.
  return { commands, transactionFormat: ledgerEffectsFormat([...new Set(commands.actAs)]) };
}

/** The endpoint the next submit goes to: the tree endpoint until it was found missing. */
export function nextSubmitEndpoint(): SubmitEndpoint {
  return treeEndpointGone() ? 'transaction' : 'transaction-tree';
}

function treeSubmitRequest(commands: JsCommands) {
  return { method: 'POST', path: TREE_ENDPOINT, body: commands } as const;
}

function transactionSubmitRequest(commands: JsCommands) {
  return {
    method: 'POST',
    path: TRANSACTION_ENDPOINT,
    body: transactionRequestBody(commands),
  } as const;
}

/**
 * The exact request a submit sends to `endpoint`: what {@link submitCommands} posts and what
 * "Copy as…" copies, so the two cannot differ.
 */
export function submitRequest(
  commands: JsCommands,
  endpoint: SubmitEndpoint = nextSubmitEndpoint(),
): LedgerApiRequest {
  return endpoint === 'transaction-tree'
    ? treeSubmitRequest(commands)
    : transactionSubmitRequest(commands);
}

async function submitForTree(commands: JsCommands): Promise<TransactionTree> {
  const { path, body } = treeSubmitRequest(commands);
  const { transactionTree } = unwrap(await api.POST(path, { body }));
  if (!transactionTree) throw new Error('The participant answered without a transaction tree');
  return fromTransactionTree(transactionTree);
}

async function submitForTransaction(commands: JsCommands): Promise<TransactionTree> {
  const { path, body } = transactionSubmitRequest(commands);
  const { transaction } = unwrap(await api.POST(path, { body }));
  return fromLedgerEffectsTransaction(transaction);
}

/**
 * Submits a batch and waits for its transaction, as one {@link TransactionTree} whichever endpoint
 * answered: the deprecated tree endpoint while the participant has it, else its successor in the
 * LEDGER_EFFECTS shape (issue 6 item 2).
 */
export async function submitCommands(commands: JsCommands): Promise<SubmitResult> {
  if (!treeEndpointGone()) {
    try {
      return { tree: await submitForTree(commands), endpoint: 'transaction-tree' };
    } catch (error) {
      if (!isEndpointMissing(error)) throw error;
      rememberTreeEndpointGone();
    }
  }
  return { tree: await submitForTransaction(commands), endpoint: 'transaction' };
}

/** Single-quotes for a POSIX shell: `'` becomes `'\''`. */
function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * A `curl` command that submits `commands` to `submit-and-wait-for-transaction` on this console's
 * API base. The token is the placeholder `$TOKEN`, never the session's own.
 */
export function toCurlCommand(commands: JsCommands, origin: string): string {
  const base = new URL(env.API_BASE_URL || '/', origin).toString().replace(/\/$/, '');
  const body = JSON.stringify(transactionRequestBody(commands), null, 2);
  return [
    `curl -sS -X POST ${shellQuote(`${base}${TRANSACTION_ENDPOINT}`)}`,
    `  -H 'Content-Type: application/json'`,
    `  -H "Authorization: Bearer $TOKEN"`,
    `  --data-binary ${shellQuote(body)}`,
  ].join(' \\\n');
}

// ── cache ──────────────────────────────────────────────────────────────────────

export const commandMutations = {
  // The composer shows failures in the form, on the field they concern.
  submit: () =>
    mutationOptions({
      mutationKey: ['commands', 'submit'],
      mutationFn: submitCommands,
      // The new transaction belongs in every recent-updates list.
      meta: { errorDisplay: 'inline', invalidates: [[...updateQueries.all(), 'recent']] },
    }),
};
