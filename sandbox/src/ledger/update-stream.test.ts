import { describe, expect, it } from 'vitest';
import { claimsFromRights, WILDCARD_CLAIMS } from '../auth/claims';
import { SandboxError } from '../errors/sandbox-error';
import {
  createCommand,
  FANOUT,
  seededSandboxPerTest,
  submit,
  transactionsOf,
} from '../testing/ledger-history';
import { checkResponse } from '../testing/spec-conformance';
import {} from '../testing/test-client';
import {
  collectList,
  decodeToken,
  encodeToken,
  streamCompletions,
  streamUpdates,
  type CompletionsStreamRequest,
} from './update-stream';

const { t, h } = seededSandboxPerTest();

async function drain<T>(stream: AsyncGenerator<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const element of stream) out.push(element);
  return out;
}

/** The first element's failure, or undefined when the stream starts fine. */
async function failureOf(stream: AsyncGenerator) {
  try {
    await stream.next();
    return undefined;
  } catch (error) {
    return error instanceof SandboxError ? error : undefined;
  } finally {
    await stream.return(undefined);
  }
}

const completionsFor = (
  body: { userId?: string; parties: string[]; beginExclusive?: number },
  caller = WILDCARD_CLAIMS,
): CompletionsStreamRequest => ({
  endpoint: 'completions',
  body: {
    userId: body.userId ?? '',
    parties: body.parties,
    beginExclusive: body.beginExclusive ?? 0,
  },
  caller,
});

const offsetsOf = (completions: any[]) =>
  completions.map((element) => element.completionResponse.Completion.value.offset as number);

describe('streamCompletions', () => {
  it('gives a user completions for its actAs parties, in the Completion1 shape', async () => {
    const completions = await drain(
      streamCompletions(t.state, completionsFor({ userId: 'alice-app', parties: [h.alice] }), {
        idleTimeoutMs: 0,
      }),
    );
    expect(offsetsOf(completions)).toEqual([6, 7, 10, 11]);
    const split = h.tx.split;
    expect(completions[0]).toEqual({
      completionResponse: {
        Completion: {
          value: {
            commandId: split.commandId,
            status: { code: 0, message: '', details: [] },
            updateId: split.updateId,
            userId: 'alice-app',
            actAs: [h.alice],
            submissionId: split.submissionId,
            deduplicationPeriod: {
              DeduplicationDuration: {
                value: { seconds: 604800, nanos: 0, unknownFields: { fields: {} } },
              },
            },
            traceContext: { traceparent: split.traceparent, tracestate: null },
            offset: 6,
            synchronizerTime: {
              synchronizerId: t.state.synchronizerId,
              recordTime: split.recordTime,
            },
            paidTrafficCost: null,
            transactionHash: null,
          },
        },
      },
    });
    const conformance = checkResponse(
      'POST',
      '/v2/commands/completions',
      200,
      'application/json',
      JSON.stringify(completions),
    );
    expect(conformance.errors).toEqual([]);
    // Another user's completions stay hidden.
    submit(t, [h.alice], [createCommand(t, FANOUT, { owner: h.alice, label: 'x' })], {
      userId: 'other-app',
    });
    const again = await drain(
      streamCompletions(
        t.state,
        completionsFor({ userId: 'alice-app', parties: [h.alice], beginExclusive: 10 }),
        { idleTimeoutMs: 0 },
      ),
    );
    expect(offsetsOf(again)).toEqual([11]);
  });

  it('serves every user through command-completions, any party when none is named', async () => {
    const all = await drain(
      streamCompletions(
        t.state,
        {
          endpoint: 'command-completions',
          body: { parties: [], beginExclusive: 0 },
          caller: WILDCARD_CLAIMS,
        },
        { idleTimeoutMs: 0 },
      ),
    );
    expect(offsetsOf(all)).toEqual([5, 6, 7, 8, 9, 10, 11]);
    const bank = await drain(
      streamCompletions(
        t.state,
        {
          endpoint: 'command-completions',
          body: { parties: [h.bank], beginExclusive: 0 },
          caller: WILDCARD_CLAIMS,
        },
        { idleTimeoutMs: 0 },
      ),
    );
    expect(offsetsOf(bank)).toEqual([5, 8, 9]);
  });

  it('follows new completions until the idle time runs out, or until aborted', async () => {
    const stream = streamCompletions(
      t.state,
      completionsFor({ userId: 'alice-app', parties: [h.alice], beginExclusive: 11 }),
      { idleTimeoutMs: 60 },
    );
    setTimeout(() => {
      submit(t, [h.alice], [createCommand(t, FANOUT, { owner: h.alice, label: 'live' })]);
    }, 10);
    expect(offsetsOf(await drain(stream))).toEqual([12]);

    // Without an idle timeout (a websocket) only the signal ends the wait.
    const controller = new AbortController();
    const endless = streamCompletions(
      t.state,
      completionsFor({ userId: 'alice-app', parties: [h.alice], beginExclusive: 12 }),
      { signal: controller.signal },
    );
    setTimeout(() => {
      controller.abort();
    }, 20);
    expect(await drain(endless)).toEqual([]);
  });

  it('validates like the real service, failing the first next()', async () => {
    const missingUser = await failureOf(
      streamCompletions(t.state, completionsFor({ parties: [h.alice] })),
    );
    expect(missingUser?.code).toBe('INVALID_TOKEN');
    expect(missingUser?.reason).toBe(
      'The submitted request is missing a user-id: Cannot default user_id field because claims do not specify an user-id. Is authentication turned on?',
    );
    expect(
      (await failureOf(streamCompletions(t.state, completionsFor({ userId: 'u', parties: [] }))))
        ?.code,
    ).toBe('MISSING_FIELD');
    expect(
      (
        await failureOf(
          streamCompletions(
            t.state,
            completionsFor({ userId: 'u', parties: [h.alice], beginExclusive: 12 }),
          ),
        )
      )?.reason,
    ).toBe('Begin offset (12) is after ledger end (11)');
    expect(
      (
        await failureOf(
          streamCompletions(
            t.state,
            completionsFor({ userId: 'u', parties: [h.alice], beginExclusive: -1 }),
          ),
        )
      )?.code,
    ).toBe('NEGATIVE_OFFSET');
    // A user token defaults the user id and may not name another user's.
    const alice = claimsFromRights('alice-app', '', [{ kind: 'CanReadAs', party: h.alice }]);
    expect(
      await failureOf(streamCompletions(t.state, completionsFor({ parties: [h.alice] }, alice))),
    ).toBeUndefined();
    expect(
      (
        await failureOf(
          streamCompletions(
            t.state,
            completionsFor({ userId: 'bank-app', parties: [h.alice] }, alice),
          ),
        )
      )?.code,
    ).toBe('PERMISSION_DENIED');
    expect(
      (await failureOf(streamCompletions(t.state, completionsFor({ parties: [h.bank] }, alice))))
        ?.code,
    ).toBe('PERMISSION_DENIED');
  });
});

describe('streamUpdates', () => {
  it('waits for new updates while open-ended and stops on abort', async () => {
    const controller = new AbortController();
    const stream = streamUpdates(
      t.state,
      {
        endpoint: 'updates',
        body: {
          beginExclusive: 11,
          verbose: false,
          descendingOrder: false,
          updateFormat: transactionsOf([h.alice]),
        },
        caller: WILDCARD_CLAIMS,
      },
      { signal: controller.signal },
    );
    const first = stream.next();
    setTimeout(() => {
      submit(t, [h.alice], [createCommand(t, FANOUT, { owner: h.alice, label: 'ws' })]);
    }, 5);
    const element: any = (await first).value;
    expect(element.update.Transaction.value.offset).toBe(12);
    const second = stream.next();
    controller.abort();
    expect((await second).done).toBe(true);
  });
});

describe('collectList', () => {
  it('takes at most the limit and does not start the stream for a limit of 0', async () => {
    async function* numbers() {
      for (let i = 0; ; i++) yield await Promise.resolve(i);
    }
    expect(await collectList(numbers(), 3)).toEqual([0, 1, 2]);
    let started = false;
    async function* failing(): AsyncGenerator<number> {
      started = true;
      yield await Promise.reject(new Error('must not run'));
    }
    expect(await collectList(failing(), 0)).toEqual([]);
    expect(started).toBe(false);
    await expect(collectList(numbers(), undefined)).rejects.toMatchObject({
      code: 'JSON_API_MAXIMUM_LIST_ELEMENTS_NUMBER_REACHED',
      httpStatus: 413,
    });
  });
});

describe('tokens', () => {
  it('round-trips and rejects anything else', () => {
    const token = encodeToken({ kind: 'acs', activeAt: 3 });
    expect(token).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(decodeToken(token)).toEqual({ kind: 'acs', activeAt: 3 });
    expect(decodeToken('bm9wZQ==')).toBeUndefined();
    expect(decodeToken('%%%')).toBeUndefined();
    expect(decodeToken('')).toBeUndefined();
  });
});
