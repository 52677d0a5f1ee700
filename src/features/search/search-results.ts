import {
  IconAddressBook,
  IconArrowsExchange,
  IconFileText,
  IconPackage,
  IconTemplate,
  IconUser,
  type Icon,
} from '@tabler/icons-react';
import type { ContractLookup } from '@/api/contracts';
import type { Module } from '@/api/daml-lf-decoder';
import { comparePackageVersions } from '@/api/packages';
import type { Access } from '@/lib/access/access-rights';
import type { Recognition, RecognizedId } from '@/lib/values/id-recognition';
import { templateLabel } from '@/lib/transaction-tree/update-summary';
import { idText, recentItemKey, type RecentItem } from './recent-items';
import { ENTRY_KIND_LABELS, type EntryMatch, type Highlight } from './search-entries';

/**
 * What the search box lists for an input: the pages its id may lead to, then what the user
 * opened recently, the pages and the actions whose words it matches. Pure; the app gives the
 * links (a feature cannot build the app's paths), so every target is one of its builders.
 */

/** Where each kind of id leads; the app builds them from its paths. */
export type SearchLinks = {
  party: (party: string) => string;
  user: (userId: string, identityProviderId: string) => string;
  package: (packageId: string) => string;
  packages: () => string;
  contract: (contractId: string) => string;
  update: (updateId: string) => string;
  offset: (offset: number) => string;
  /** The active contracts of one template, or of the templates implementing one interface. */
  activeContracts: (filter: { template: string } | { interface: string }) => string;
};

/** A page to go to or something to do, offered to callers who may. */
export type SearchAction = {
  /** Stable across releases: recent items refer to it. */
  id: string;
  label: string;
  to: string;
  icon: Icon;
  kind: 'page' | 'action';
  isVisible: (access: Access) => boolean;
  /** Other words it is found by. */
  keywords?: readonly string[];
};

export type PackageVersion = { packageId: string; version: string };

/** What the package of a template or interface id typed in says it names, once decoded. */
export type TemplateLookup = { status: 'unknown' | 'template' | 'interface' | 'missing' };

/** What the contract service says of a contract id typed in, when it answered. */
export type ContractSearchLookup = { status: 'unknown' } | ContractLookup;

/** What the participant knows of a party id typed in, when the caller may ask. */
export type PartyLookup = { status: 'unknown' | 'local' | 'remote' | 'missing' };

/** What is known of a user id typed in: where it lives, when someone could look. */
export type UserLookup =
  { status: 'unknown' } | { status: 'found'; identityProviderId: string } | { status: 'missing' };

export type SearchContext = {
  links: SearchLinks;
  /** The caller's actions, already filtered by what it may do. */
  actions: readonly SearchAction[];
  recent: readonly RecentItem[];
  /** The ids and versions of each package name the participant vets. */
  packagesByName: ReadonlyMap<string, readonly PackageVersion[]>;
  /** The user lookup of the input's user id, when it is one. */
  user: UserLookup;
  /** The lookup of the input's party id, when it is one. */
  party: PartyLookup;
  /** The lookup of the input's contract id, when it is one. */
  contract: ContractSearchLookup;
  /** The lookup of the input's template or interface id, when it is one. */
  template: TemplateLookup;
  /** The ledger end, when an offset was typed and it is known. */
  ledgerEnd: number | undefined;
  /** The IdP to open a user in when the lookup has not told (the caller's own, or the default). */
  identityProviderId: string;
  /** What the input names or begins, ranked (search-entries.ts); an id typed whole comes first. */
  nameMatches?: readonly EntryMatch[];
};

export type SearchItem = {
  /** Unique in the results. */
  key: string;
  title: string;
  /** The id, shown in monospace, when the item is one. */
  value?: string;
  description?: string;
  to: string;
  icon: Icon;
  /** What it leads to, as a recent item would: the same thing is listed once. */
  subject?: RecentItem;
  /** The kind of thing, for rows found by name ("User", "Choice"). */
  kindLabel?: string;
  /** A second text found by ("Primary party", its text). */
  aside?: { label: string; text: string };
  /** Where the input was found in the row's texts. */
  highlight?: Highlight;
  /** `to` is another participant's page (another app root): opened by a document navigation. */
  isDocumentLink?: boolean;
};

export type SearchGroup = { label: string; items: SearchItem[] };

/** The group of the pages the input's ids lead to: first when there is one. */
export const GO_TO_GROUP = 'Go to';

const PARTY_DESCRIPTIONS: Record<PartyLookup['status'], string> = {
  unknown: 'Its hosting, annotations and who may act as it',
  local: 'Hosted here',
  remote: 'Known here, hosted on another participant',
  missing: 'Not known to this participant',
};

/** The groups of results for `recognition` of the input; empty groups are left out. */
export function searchResults(recognition: Recognition, context: SearchContext): SearchGroup[] {
  const needle = recognition.text.toLowerCase();
  // Nearly any word is a valid user id: unless the user is known to exist, that reading comes
  // after the pages and actions the word names, so Enter on "upload" uploads.
  const isWeak = (id: RecognizedId) => id.kind === 'user' && context.user.status !== 'found';
  const ids = recognition.candidates
    .filter((id) => !isWeak(id))
    .flatMap((id) => idItems(id, context));
  const weakIds = recognition.candidates.filter(isWeak).flatMap((id) => idItems(id, context));
  const shownIds = new Set([...ids, ...weakIds].map(subjectKey));
  const recent = context.recent
    .flatMap((item) => recentSearchItem(item, context) ?? [])
    .filter((item) => !shownIds.has(subjectKey(item)))
    .filter((item) => matches(needle, [item.title, item.value ?? '']));
  const shownRecent = new Set(recent.map(subjectKey));
  // A name match of what is listed already (the id typed whole, a recent item) is left out.
  const named = (context.nameMatches ?? [])
    .filter((match) => {
      const key = match.subject && recentItemKey(match.subject);
      return key === undefined || (!shownIds.has(key) && !shownRecent.has(key));
    })
    .map(nameMatchItem);
  const actions = context.actions.filter(
    (action) =>
      !shownRecent.has(recentItemKey({ kind: 'action', actionId: action.id })) &&
      matches(needle, [action.label, ...(action.keywords ?? [])]),
  );
  const groups: SearchGroup[] = [
    { label: GO_TO_GROUP, items: ids },
    { label: 'Recent', items: recent },
    {
      label: 'Pages',
      items: actions.filter((action) => action.kind === 'page').map(actionItem),
    },
    {
      label: 'Actions',
      items: actions.filter((action) => action.kind === 'action').map(actionItem),
    },
    { label: 'By name or id', items: named },
    { label: 'Other matches', items: weakIds },
  ];
  return groups.filter((group) => group.items.length > 0);
}

function subjectKey(item: SearchItem): string | undefined {
  return item.subject && recentItemKey(item.subject);
}

function nameMatchItem(match: EntryMatch): SearchItem {
  return {
    key: `named:${match.key}`,
    title: match.title,
    ...(match.value === undefined ? {} : { value: match.value }),
    ...(match.aside === undefined ? {} : { aside: match.aside }),
    ...(match.description === undefined ? {} : { description: match.description }),
    to: match.to,
    icon: match.icon,
    ...(match.subject === undefined ? {} : { subject: match.subject }),
    kindLabel: ENTRY_KIND_LABELS[match.kind],
    highlight: match.highlight,
  };
}

/** Whether every word of `needle` is in one of `texts` (ignoring case); an empty one always is. */
function matches(needle: string, texts: readonly string[]): boolean {
  const haystack = texts.join(' ').toLowerCase();
  return needle
    .split(/\s+/)
    .filter((word) => word !== '')
    .every((word) => haystack.includes(word));
}

function actionItem(action: SearchAction): SearchItem {
  return {
    key: `action:${action.id}`,
    title: action.label,
    to: action.to,
    icon: action.icon,
    subject: { kind: 'action', actionId: action.id },
  };
}

function recentSearchItem(item: RecentItem, context: SearchContext): SearchItem | undefined {
  // The lookups are of the input's ids, not of one opened before.
  if (item.kind === 'id') {
    const unknown = {
      user: { status: 'unknown' },
      party: { status: 'unknown' },
      template: { status: 'unknown' },
      contract: { status: 'unknown' },
    } as const;
    return idItems(item.id, { ...context, ...unknown })[0];
  }
  const action = context.actions.find((candidate) => candidate.id === item.actionId);
  return action && actionItem(action);
}

/** The newest version of the package called `name`, as far as the vetting list tells. */
function newestPackage(
  name: string,
  packagesByName: SearchContext['packagesByName'],
): PackageVersion | undefined {
  const versions = packagesByName.get(name) ?? [];
  return [...versions].sort((a, b) => comparePackageVersions(b.version, a.version))[0];
}

/** The pages `id` may lead to, the likeliest first. */
function idItems(id: RecognizedId, context: SearchContext): SearchItem[] {
  const { links } = context;
  const value = idText(id);
  const item = (fields: Omit<SearchItem, 'key' | 'subject'>, suffix = ''): SearchItem => ({
    key: `${id.kind}:${value}${suffix}`,
    value,
    subject: { kind: 'id', id },
    ...fields,
  });
  switch (id.kind) {
    case 'party':
      return [
        item({
          title: 'Party',
          description: PARTY_DESCRIPTIONS[context.party.status],
          to: links.party(id.party),
          icon: IconAddressBook,
        }),
      ];
    case 'update':
      return [
        item({
          title: 'Update',
          description: 'The transaction and its events',
          to: links.update(id.updateId),
          icon: IconArrowsExchange,
        }),
      ];
    case 'contract':
      return [
        item({
          title: 'Contract',
          description: contractDescription(context.contract),
          to: links.contract(id.contractId),
          icon: IconFileText,
        }),
      ];
    case 'package':
      return [
        item({
          title: 'Package',
          description: 'Its modules, templates and vetting',
          to: links.package(id.packageId),
          icon: IconPackage,
        }),
      ];
    case 'package-name': {
      const newest = newestPackage(id.name, context.packagesByName);
      return [
        item({
          title: 'Package name',
          description: newest
            ? `Its newest version, ${newest.version}`
            : 'Not vetted here: the packages list',
          to: newest ? links.package(newest.packageId) : links.packages(),
          icon: IconPackage,
        }),
      ];
    }
    case 'template':
      return templateItems(id, context, item);
    case 'offset':
      return [
        item({
          // The title says the number; shown again as the id it would read as one too many.
          value: undefined,
          title: `Update at offset ${value}`,
          description:
            context.ledgerEnd !== undefined && id.offset > context.ledgerEnd
              ? `Beyond the ledger end, ${String(context.ledgerEnd)}`
              : 'The transaction and its events',
          to: links.offset(id.offset),
          icon: IconArrowsExchange,
        }),
      ];
    case 'user':
      return [userItem(id.userId, context, item)];
  }
}

function contractDescription(lookup: ContractSearchLookup): string {
  switch (lookup.status) {
    case 'unknown':
      return 'Its create and archive';
    case 'missing':
      return 'No contract with this id is visible to you';
    case 'active':
      return `An active ${templateLabel(lookup.templateId)}`;
    case 'archived':
      return `An archived ${templateLabel(lookup.templateId)}`;
  }
}

function userItem(
  userId: string,
  { links, user, identityProviderId }: SearchContext,
  item: (fields: Omit<SearchItem, 'key' | 'subject'>) => SearchItem,
): SearchItem {
  const found = user.status === 'found';
  const description = (() => {
    switch (user.status) {
      case 'found':
        return user.identityProviderId === ''
          ? 'A user of the default identity provider'
          : `A user of identity provider ${user.identityProviderId}`;
      case 'missing':
        return 'No user with this id here';
      case 'unknown':
        return 'Its rights and profile';
    }
  })();
  return item({
    title: 'User',
    description,
    to: links.user(userId, found ? user.identityProviderId : identityProviderId),
    icon: IconUser,
  });
}

/** The package a template or interface id names: by id, or the newest of its name. */
export function templatePackageId(
  id: Extract<RecognizedId, { kind: 'template' }>,
  packagesByName: SearchContext['packagesByName'],
): string | undefined {
  const ref = id.package;
  return ref.kind === 'id' ? ref.packageId : newestPackage(ref.name, packagesByName)?.packageId;
}

/** Whether `qualifiedName` (`Module:Entity`) is a template or an interface of these modules. */
export function templateKindIn(
  modules: readonly Module[],
  qualifiedName: string,
): TemplateLookup['status'] {
  const [moduleName, entityName] = qualifiedName.split(':');
  const module = modules.find((candidate) => candidate.name === moduleName);
  if (module?.templates.some((template) => template.name === entityName)) return 'template';
  if (module?.interfaces.some((definition) => definition.name === entityName)) return 'interface';
  return 'missing';
}

/** The package page of a template or interface id, and its active contracts when it is known. */
function templateItems(
  id: Extract<RecognizedId, { kind: 'template' }>,
  { links, packagesByName, template }: SearchContext,
  item: (fields: Omit<SearchItem, 'key' | 'subject'>, suffix?: string) => SearchItem,
): SearchItem[] {
  const packageId = templatePackageId(id, packagesByName);
  if (packageId === undefined) {
    return [
      item({
        title: 'Template or interface',
        description: 'Its package is not vetted here: the packages list',
        to: links.packages(),
        icon: IconTemplate,
      }),
    ];
  }
  const inPackage = item({
    title: {
      template: 'Template',
      interface: 'Interface',
      unknown: 'Template or interface',
      missing: 'Template or interface',
    }[template.status],
    description:
      template.status === 'missing'
        ? `${id.qualifiedName} is not found in its package`
        : `${id.qualifiedName} in its package`,
    to: links.package(packageId),
    icon: IconTemplate,
  });
  if (template.status === 'missing') return [inPackage];
  const isInterface = template.status === 'interface';
  return [
    inPackage,
    item(
      {
        title: 'Active contracts',
        description: isInterface
          ? `Of the templates implementing ${id.qualifiedName}`
          : `Of ${id.qualifiedName}`,
        to: links.activeContracts(
          isInterface ? { interface: id.templateId } : { template: id.templateId },
        ),
        icon: IconFileText,
      },
      ':contracts',
    ),
  ];
}
