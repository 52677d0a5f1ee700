/**
 * The /contracts view as it travels in the URL (shareable): whose contracts, at which offset,
 * which template or interface, and a text to match. Every value is bounded: a crafted link cannot
 * make the page send a huge request.
 */
export type ContractsView = {
  /** Empty: every party the caller may read. */
  parties: readonly string[];
  /** Undefined: the ledger end when the page loads. */
  offset?: number;
  template?: string;
  interface?: string;
  search: string;
};

export const MAX_VIEW_PARTIES = 50;
export const MAX_ID_LENGTH = 512;
export const MAX_SEARCH_LENGTH = 200;

const boundedId = (value: string | null): string | undefined => {
  const id = value?.trim();
  return id && id.length <= MAX_ID_LENGTH ? id : undefined;
};

/** Reads the view from `?party=…&offset=…&template=…|interface=…&q=…`; invalid parts are dropped. */
export function readContractsView(params: URLSearchParams): ContractsView {
  const parties = [
    ...new Set(params.getAll('party').flatMap((party) => boundedId(party) ?? [])),
  ].slice(0, MAX_VIEW_PARTIES);
  const offsetText = params.get('offset') ?? '';
  const offset = /^\d{1,16}$/.test(offsetText) ? Number(offsetText) : undefined;
  const template = boundedId(params.get('template'));
  // One of the two: a template names its contracts exactly, so it wins.
  const iface = template === undefined ? boundedId(params.get('interface')) : undefined;
  const search = (params.get('q') ?? '').slice(0, MAX_SEARCH_LENGTH);
  return {
    parties,
    ...(offset !== undefined && Number.isSafeInteger(offset) ? { offset } : {}),
    ...(template !== undefined ? { template } : {}),
    ...(iface !== undefined ? { interface: iface } : {}),
    search,
  };
}
