import type { ActiveContract } from '@/api/active-contracts';

// Built when a text filter is first typed, kept per contract: typing again does not stringify
// 100,000 arguments again. Weak, so the texts go with the contracts.
const searchTexts = new WeakMap<ActiveContract, string>();

function searchTextOf(contract: ActiveContract): string {
  let text = searchTexts.get(contract);
  if (text === undefined) {
    const view =
      contract.interfaceView && 'value' in contract.interfaceView
        ? JSON.stringify(contract.interfaceView.value)
        : '';
    text =
      `${contract.contractId}\n${JSON.stringify(contract.createArgument)}\n${view}`.toLowerCase();
    searchTexts.set(contract, text);
  }
  return text;
}

/**
 * The contracts whose argument (or interface view, or contract id) contains `search`, ignoring
 * case: values as the JSON API encodes them, so `100` finds an amount of `100.0000000000`.
 */
export function matchContracts(
  contracts: readonly ActiveContract[],
  search: string,
): readonly ActiveContract[] {
  const needle = search.trim().toLowerCase();
  if (needle === '') return contracts;
  return contracts.filter((contract) => searchTextOf(contract).includes(needle));
}
