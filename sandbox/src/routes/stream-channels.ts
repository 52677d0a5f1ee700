import { decodeJson } from '../http/decode';
import type { StreamChannel } from '../http/websocket-server';
import type { LedgerState } from '../ledger-state';
import {
  completionStreamRequestSchema,
  getActiveContractsRequestSchema,
  getCompletionsRequestSchema,
  getUpdatesRequestSchema,
} from '../http/stream-requests';
import {
  streamActiveContracts,
  streamCompletions,
  streamUpdates,
  type UpdatesEndpoint,
} from '../ledger/update-stream';

/**
 * The websocket endpoints of the AsyncAPI document, over the same generators as the list
 * endpoints but without their cap or idle timeout: an open-ended stream stays open until the
 * client closes it (§10).
 */
export function streamChannels(state: LedgerState): ReadonlyMap<string, StreamChannel> {
  const updates = (endpoint: UpdatesEndpoint): StreamChannel => ({
    open: (message, caller, signal) =>
      streamUpdates(
        state,
        { endpoint, body: decodeJson(message, getUpdatesRequestSchema), caller },
        { signal },
      ),
  });
  return new Map<string, StreamChannel>([
    ['/v2/updates', updates('updates')],
    ['/v2/updates/flats', updates('flats')],
    ['/v2/updates/trees', updates('trees')],
    [
      '/v2/state/active-contracts',
      {
        open: (message, caller, signal) =>
          streamActiveContracts(
            state,
            { body: decodeJson(message, getActiveContractsRequestSchema), caller },
            { signal },
          ),
      },
    ],
    [
      '/v2/commands/completions',
      {
        open: (message, caller, signal) =>
          streamCompletions(
            state,
            {
              endpoint: 'completions',
              body: decodeJson(message, completionStreamRequestSchema),
              caller,
            },
            { signal },
          ),
      },
    ],
    [
      '/v2/commands/command-completions',
      {
        open: (message, caller, signal) =>
          streamCompletions(
            state,
            {
              endpoint: 'command-completions',
              body: decodeJson(message, getCompletionsRequestSchema),
              caller,
            },
            { signal },
          ),
      },
    ],
  ]);
}
