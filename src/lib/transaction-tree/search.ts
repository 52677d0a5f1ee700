import { getNode, type NodeId, type TransactionTree, type TreeNode } from './model';

/**
 * Search over a tree's nodes. The result's `ancestors` go to `buildVisibleTree` as its
 * `forceExpanded` set: matches stay visible while the user's own collapsed set is untouched.
 *
 * Query rules: case-insensitive substrings; whitespace separates terms and a node must contain
 * every term (in any field); a term may be limited to one field with a prefix, e.g.
 * `choice:transfer party:alice`. Prefixes: `template:`, `choice:`, `contract:`, `party:`, `arg:`.
 */

export type SearchField = 'template' | 'choice' | 'contract' | 'party' | 'arg';

export const SEARCH_FIELDS: readonly SearchField[] = [
  'template',
  'choice',
  'contract',
  'party',
  'arg',
];

export type SearchResult = {
  /** Matching nodes in pre-order (the order to step through them). */
  readonly matches: readonly NodeId[];
  readonly isMatch: ReadonlySet<NodeId>;
  /** Every proper ancestor of a match: to be force-expanded. */
  readonly ancestors: ReadonlySet<NodeId>;
  /** For each match, the fields that a term was found in (for highlighting). */
  readonly fieldsOf: ReadonlyMap<NodeId, readonly SearchField[]>;
};

type Term = { text: string; field: SearchField | null };

/** Lower-cased text per field, per node (indexed like `tree.order`). */
type Haystack = Readonly<Record<SearchField, string>>;

// JSON-stringifying every argument is the costly part; it is done once per tree, on first search.
const haystacks = new WeakMap<TransactionTree, readonly Haystack[]>();

const EMPTY_RESULT: SearchResult = {
  matches: [],
  isMatch: new Set(),
  ancestors: new Set(),
  fieldsOf: new Map(),
};

export function parseQuery(query: string): Term[] {
  return query
    .trim()
    .toLowerCase()
    .split(/\s+/)
    .filter((word) => word !== '')
    .map((word) => {
      const colon = word.indexOf(':');
      const prefix = colon > 0 ? word.slice(0, colon) : '';
      const field = SEARCH_FIELDS.find((name) => name === prefix);
      // `party:` alone, or an unknown prefix such as `demo.iou:iou`, is searched as written.
      return field && colon < word.length - 1
        ? { text: word.slice(colon + 1), field }
        : { text: word, field: null };
    });
}

/** The nodes matching `query`, and the ancestors that must stay open to show them. */
export function searchTree(tree: TransactionTree, query: string): SearchResult {
  const terms = parseQuery(query);
  if (terms.length === 0) return EMPTY_RESULT;
  const texts = haystacksOf(tree);
  const matches: NodeId[] = [];
  const fieldsOf = new Map<NodeId, SearchField[]>();
  tree.order.forEach((id, i) => {
    const haystack = texts[i];
    const fields = haystack && matchFields(haystack, terms);
    if (!fields) return;
    matches.push(id);
    fieldsOf.set(id, fields);
  });
  const ancestors = new Set<NodeId>();
  for (const id of matches) {
    // Stops at the first ancestor already added: its own ancestors are in the set too.
    for (let parent = getNode(tree, id).parentId; parent !== null && !ancestors.has(parent);) {
      ancestors.add(parent);
      parent = getNode(tree, parent).parentId;
    }
  }
  return { matches, isMatch: new Set(matches), ancestors, fieldsOf };
}

function matchFields(haystack: Haystack, terms: readonly Term[]): SearchField[] | null {
  const found = new Set<SearchField>();
  for (const term of terms) {
    let hit = false;
    for (const field of term.field ? [term.field] : SEARCH_FIELDS) {
      if (haystack[field].includes(term.text)) {
        found.add(field);
        hit = true;
      }
    }
    if (!hit) return null;
  }
  return SEARCH_FIELDS.filter((field) => found.has(field));
}

function haystacksOf(tree: TransactionTree): readonly Haystack[] {
  let texts = haystacks.get(tree);
  if (!texts) {
    texts = tree.order.map((id) => haystackOf(getNode(tree, id)));
    haystacks.set(tree, texts);
  }
  return texts;
}

const json = (value: unknown) =>
  value === null || value === undefined ? '' : JSON.stringify(value);

// Fields are joined with a character no query term can contain (terms have no whitespace), so a
// term never matches across two values.
const join = (values: readonly string[]) => values.join('\n').toLowerCase();

function haystackOf(node: TreeNode): Haystack {
  const template = join([node.templateId, node.packageName]);
  const contract = node.contractId.toLowerCase();
  switch (node.kind) {
    case 'created':
      return {
        template,
        contract,
        choice: '',
        party: join([...node.signatories, ...node.observers, ...node.witnessParties]),
        arg: join([json(node.createArgument), json(node.contractKey)]),
      };
    case 'exercised':
      return {
        template,
        contract,
        choice: join([node.choice, node.interfaceId ?? '']),
        party: join([...node.actingParties, ...node.witnessParties]),
        arg: join([json(node.choiceArgument), json(node.exerciseResult)]),
      };
    case 'archived':
      return { template, contract, choice: '', party: join(node.witnessParties), arg: '' };
  }
}
