import {
  IconAddressBook,
  IconArrowsExchange,
  IconBolt,
  IconFileText,
  IconPackage,
  IconPlugConnected,
  IconTemplate,
  IconUser,
  type Icon,
} from '@tabler/icons-react';
import { idHint, templateLabel } from '@/lib/transaction-tree/update-summary';
import { matchTexts, normalizeNeedle, topRanked, type MatchTier } from './search-match';
import type { RecentItem } from './recent-items';

/**
 * The things the search box finds by name or by the start of their id: users, parties,
 * templates, interfaces, choices, packages, and the updates and contracts the console has seen.
 * Built from what the API modules read (pure: the palette's hook hands the data in), matched and
 * ranked by search-match.ts.
 */

/** The kinds of things found by name, as each row labels itself. */
export const ENTRY_KIND_LABELS = {
  user: 'User',
  party: 'Party',
  template: 'Template',
  interface: 'Interface',
  choice: 'Choice',
  package: 'Package',
  update: 'Update',
  contract: 'Contract',
} as const;
export type EntryKind = keyof typeof ENTRY_KIND_LABELS;

/** The texts of a row that are searched, in the order they win a tie. */
export type EntryField = 'title' | 'value' | 'aside';

export type SearchEntry = {
  kind: EntryKind;
  /** Unique among the entries. */
  key: string;
  /** The name: a display name, a hint, a template's name. */
  title: string;
  /** The id, shown in monospace. */
  value?: string;
  /** A second searched text and what it is ("Primary party", "Version"). */
  aside?: { label: string; text: string };
  /** Not searched. */
  description?: string;
  /** Which texts are searched: an update is found by its id, not by the word "Update". */
  searched: readonly EntryField[];
  to: string;
  icon: Icon;
  /** Larger is more recent; 0 when unknown. */
  recency: number;
  /** The id the row leads to, as a recent item would name it: the same thing is listed once. */
  subject?: RecentItem;
};

/** Where the matched text is in each searched field of a row. */
export type Highlight = Partial<Record<EntryField, { start: number; end: number }>>;

export type EntryMatch = SearchEntry & { tier: MatchTier; highlight: Highlight };

/** At most this many rows are found by name, and this many of one kind. */
export const MAX_NAME_MATCHES = 40;
export const MAX_NAME_MATCHES_PER_KIND = 12;

/** The entries that `text` matches, the best first (search-match.ts). */
export function matchEntries(text: string, entries: readonly SearchEntry[]): EntryMatch[] {
  const needle = normalizeNeedle(text);
  if (needle === '') return [];
  const matched: EntryMatch[] = [];
  for (const entry of entries) {
    const texts = entry.searched.map((field) => fieldText(entry, field));
    const found = matchTexts(needle, texts);
    const field = found && entry.searched[found.field];
    if (!found || !field) continue;
    matched.push({
      ...entry,
      tier: found.tier,
      highlight: { [field]: { start: found.start, end: found.end } },
    });
  }
  return topRanked(
    matched.map((entry) => ({ ...entry, label: entry.title })),
    { limit: MAX_NAME_MATCHES, perKind: MAX_NAME_MATCHES_PER_KIND },
  );
}

function fieldText(entry: SearchEntry, field: EntryField): string | undefined {
  if (field === 'title') return entry.title;
  if (field === 'value') return entry.value;
  return entry.aside?.text;
}

// ── entries from what the API modules read ───────────────────────────────────────

/** Where the entries' rows lead; the app builds them from its paths. */
export type EntryLinks = {
  user: (userId: string, identityProviderId: string) => string;
  party: (party: string) => string;
  package: (packageId: string) => string;
  update: (updateId: string) => string;
  contract: (contractId: string) => string;
};

type Annotations = Readonly<Record<string, string>> | undefined;

/**
 * A display name kept in annotations: the console's own key (`ledger-console/display-name`) or
 * any other namespace's `display-name` / `displayName` key.
 */
export function displayNameOf(annotations: Annotations): string | undefined {
  for (const [key, value] of Object.entries(annotations ?? {})) {
    const name = key.slice(key.lastIndexOf('/') + 1);
    if ((name === 'display-name' || name === 'displayName') && value.trim() !== '') {
      return value.trim();
    }
  }
  return undefined;
}

const idpText = (identityProviderId: string) =>
  identityProviderId === ''
    ? 'Default identity provider'
    : `Identity provider ${identityProviderId}`;

export type UserSource = {
  id: string;
  primaryParty?: string;
  identityProviderId?: string;
  isDeactivated?: boolean;
  metadata?: { annotations?: Annotations };
};

export function userEntries(users: readonly UserSource[], links: EntryLinks): SearchEntry[] {
  return users.map((user) => {
    const identityProviderId = user.identityProviderId ?? '';
    const displayName = displayNameOf(user.metadata?.annotations);
    return {
      kind: 'user',
      key: `user:${identityProviderId}:${user.id}`,
      title: displayName ?? user.id,
      value: user.id,
      ...(user.primaryParty ? { aside: { label: 'Primary party', text: user.primaryParty } } : {}),
      description: `${idpText(identityProviderId)}${user.isDeactivated ? ' · deactivated' : ''}`,
      searched: ['title', 'value', 'aside'],
      to: links.user(user.id, identityProviderId),
      icon: IconUser,
      recency: 0,
      subject: { kind: 'id', id: { kind: 'user', userId: user.id } },
    };
  });
}

export type PartySource = {
  party: string;
  isLocal?: boolean;
  identityProviderId?: string;
  localMetadata?: { annotations?: Annotations };
};

export function partyEntries(parties: readonly PartySource[], links: EntryLinks): SearchEntry[] {
  return parties.map((details) => {
    const displayName = displayNameOf(details.localMetadata?.annotations);
    const hint = idHint(details.party);
    return {
      kind: 'party',
      key: `party:${details.party}`,
      title: displayName ?? hint,
      value: details.party,
      // The hint is the id's start: an id match is a prefix match already.
      ...(displayName === undefined ? {} : { aside: { label: 'Hint', text: hint } }),
      ...(details.isLocal === undefined
        ? {}
        : { description: details.isLocal ? 'Hosted here' : 'Not hosted in your view' }),
      searched: ['title', 'value', 'aside'],
      to: links.party(details.party),
      icon: IconAddressBook,
      recency: 0,
      subject: { kind: 'id', id: { kind: 'party', party: details.party } },
    };
  });
}

export type PackageSource = { packageId: string; name: string; version: string };

const packageText = ({ name, version }: PackageSource) =>
  version === '' ? name : `${name} ${version}`;

export function packageEntries(
  packages: readonly PackageSource[],
  links: EntryLinks,
): SearchEntry[] {
  return packages.map((pkg) => ({
    kind: 'package',
    key: `package:${pkg.packageId}`,
    title: pkg.name,
    value: pkg.packageId,
    ...(pkg.version === '' ? {} : { aside: { label: 'Version', text: pkg.version } }),
    searched: ['title', 'aside', 'value'],
    to: links.package(pkg.packageId),
    icon: IconPackage,
    recency: 0,
    subject: { kind: 'id', id: { kind: 'package', packageId: pkg.packageId } },
  }));
}

/** What a decoded package declares, as far as search needs it. */
export type PackageDeclarations = PackageSource & {
  modules: readonly {
    name: string;
    templates: readonly { name: string; choices: readonly { name: string }[] }[];
    interfaces: readonly { name: string; choices: readonly { name: string }[] }[];
  }[];
};

/** The templates, interfaces and their choices of decoded packages; each row opens its package. */
export function declarationEntries(
  packages: readonly PackageDeclarations[],
  links: EntryLinks,
): SearchEntry[] {
  const entries: SearchEntry[] = [];
  for (const pkg of packages) {
    const to = links.package(pkg.packageId);
    const inPackage = `in ${packageText(pkg)}`;
    for (const module of pkg.modules) {
      const declared = [
        ...module.templates.map((template) => ({ kind: 'template' as const, ...template })),
        ...module.interfaces.map((definition) => ({ kind: 'interface' as const, ...definition })),
      ];
      for (const { kind, name, choices } of declared) {
        const qualifiedName = `${module.name}:${name}`;
        const templateId = `${pkg.packageId}:${qualifiedName}`;
        entries.push({
          kind,
          key: `${kind}:${templateId}`,
          title: name,
          value: qualifiedName,
          description: `${ENTRY_KIND_LABELS[kind]} ${inPackage}`,
          searched: ['title', 'value'],
          to,
          icon: kind === 'template' ? IconTemplate : IconPlugConnected,
          recency: 0,
          subject: {
            kind: 'id',
            id: {
              kind: 'template',
              templateId,
              package: { kind: 'id', packageId: pkg.packageId },
              qualifiedName,
            },
          },
        });
        for (const choice of choices) {
          entries.push({
            kind: 'choice',
            key: `choice:${templateId}:${choice.name}`,
            title: choice.name,
            value: qualifiedName,
            description: `Choice of ${name} ${inPackage}`,
            searched: ['title'],
            to,
            icon: IconBolt,
            recency: 0,
          });
        }
      }
    }
  }
  return entries;
}

/** Where the console saw an update or contract id: the row says so. */
export type SeenWhere =
  { kind: 'scan'; updates: number } | { kind: 'session' } | { kind: 'visited' };

function seenText(where: SeenWhere): string {
  switch (where.kind) {
    case 'scan':
      return `Seen in the last ${String(where.updates)} ${where.updates === 1 ? 'update' : 'updates'}`;
    case 'session':
      return 'Seen in this session';
    case 'visited':
      return 'Opened recently';
  }
}

export type SeenUpdate = { updateId: string; offset: number | undefined; where: SeenWhere };
export type SeenContract = {
  contractId: string;
  templateId: string | undefined;
  offset: number | undefined;
  where: SeenWhere;
};

/** Seen updates, once each (the first sighting wins), found by the start of their id. */
export function seenUpdateEntries(seen: readonly SeenUpdate[], links: EntryLinks): SearchEntry[] {
  return uniqueBy(seen, (update) => update.updateId).map((update) => ({
    kind: 'update',
    key: `update:${update.updateId}`,
    title: update.offset === undefined ? 'Update' : `Update at offset ${String(update.offset)}`,
    value: update.updateId,
    description: seenText(update.where),
    searched: ['value'],
    to: links.update(update.updateId),
    icon: IconArrowsExchange,
    recency: update.offset ?? 0,
    subject: { kind: 'id', id: { kind: 'update', updateId: update.updateId } },
  }));
}

export function seenContractEntries(
  seen: readonly SeenContract[],
  links: EntryLinks,
): SearchEntry[] {
  return uniqueBy(seen, (contract) => contract.contractId).map((contract) => ({
    kind: 'contract',
    key: `contract:${contract.contractId}`,
    title: contract.templateId === undefined ? 'Contract' : templateLabel(contract.templateId),
    value: contract.contractId,
    description: seenText(contract.where),
    searched: ['value'],
    to: links.contract(contract.contractId),
    icon: IconFileText,
    recency: contract.offset ?? 0,
    subject: { kind: 'id', id: { kind: 'contract', contractId: contract.contractId } },
  }));
}

function uniqueBy<T>(items: readonly T[], keyOf: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = keyOf(item);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
