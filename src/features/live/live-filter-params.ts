import type { UpdateFilter, UpdateKind } from '@/lib/transaction-tree/update-summary';

/**
 * The live view's filters in the URL (`party`, `template`, `kinds=transactions,topology`), so a
 * reload or a shared link shows the same stream. Bounded: ledger ids are far shorter.
 */

export const LIVE_KINDS: readonly { kind: UpdateKind; param: string; label: string }[] = [
  { kind: 'transaction', param: 'transactions', label: 'Transactions' },
  { kind: 'reassignment', param: 'reassignments', label: 'Reassignments' },
  { kind: 'topology', param: 'topology', label: 'Topology events' },
];

export const MAX_FILTER_TEXT = 300;

const text = (value: string | null) => {
  const trimmed = value?.trim().slice(0, MAX_FILTER_TEXT);
  return trimmed === '' ? undefined : trimmed;
};

export function liveFilterOf(params: URLSearchParams): UpdateFilter {
  const party = text(params.get('party'));
  const template = text(params.get('template'));
  const kindsParam = params.get('kinds');
  const kinds =
    kindsParam === null
      ? undefined
      : LIVE_KINDS.filter(({ param }) => kindsParam.split(',').includes(param)).map(
          ({ kind }) => kind,
        );
  return {
    ...(party === undefined ? {} : { party }),
    ...(template === undefined ? {} : { template }),
    ...(kinds === undefined ? {} : { kinds }),
  };
}

/** `params` with the filter in place of the old one (other params kept; every kind = no param). */
export function withLiveFilter(params: URLSearchParams, filter: UpdateFilter): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const key of ['party', 'template', 'kinds']) next.delete(key);
  if (filter.party) next.set('party', filter.party.slice(0, MAX_FILTER_TEXT));
  if (filter.template) next.set('template', filter.template.slice(0, MAX_FILTER_TEXT));
  const { kinds } = filter;
  if (kinds && kinds.length < LIVE_KINDS.length) {
    const chosen = LIVE_KINDS.filter(({ kind }) => kinds.includes(kind));
    next.set('kinds', chosen.map(({ param }) => param).join(','));
  }
  return next;
}
