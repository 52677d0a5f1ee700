import { Badge, Group, Kbd, Modal, Stack, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useId, useMemo, useState, type KeyboardEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { packageQueries } from '@/api/packages';
import { type VettedPackages, vettingQueries } from '@/api/package-vetting';
import { partyQueries } from '@/api/parties';
import { sessionQueries } from '@/api/session';
import { contractQueries } from '@/api/contracts';
import { isEmptyScope, readScopeOf, updateQueries } from '@/api/updates';
import { userQueries } from '@/api/users';
import { userWhereaboutsQuery } from '@/hooks/user-whereabouts';
import { accessOf, type Access, type Caller } from '@/lib/access/access-rights';
import { isNotFound } from '@/lib/errors/api-error';
import { formatCount } from '@/lib/text/format';
import { MAX_SEARCH_LENGTH, recognizeId, type RecognizedId } from '@/lib/values/id-recognition';
import { recentItemsOf, type RecentItem } from './recent-items';
import {
  GO_TO_GROUP,
  searchResults,
  templateKindIn,
  templatePackageId,
  type ContractSearchLookup,
  type PackageVersion,
  type PartyLookup,
  type TemplateLookup,
  type SearchAction,
  type SearchItem,
  type SearchLinks,
  type UserLookup,
} from './search-results';
import classes from './search-palette.module.css';
import { highlightPieces } from './search-match';
import type { PackageSource } from './search-entries';
import { useNameSearch } from './use-name-search';
import { fleetSearchId } from './fleet-search';
import { useFleetSearch } from './use-fleet-search';
import { readVisits } from './visits';

export type { SearchAction, SearchLinks } from './search-results';
export type { RecentItem } from './recent-items';

export type SearchPaletteProps = {
  opened: boolean;
  onClose: () => void;
  links: SearchLinks;
  /** Every page and action; the palette offers those the caller may use. */
  actions: readonly SearchAction[];
  /** The item a visited location (`/contracts/00ab…`) stands for, if any; the app knows routes. */
  recentItemOf: (location: string) => RecentItem | undefined;
  /** The sign-in page, coming back to `from`: where a participant not signed in on leads. */
  signIn: (from: string) => string;
};

/** Until the participant says who the caller is, it is offered what anyone may do. */
const NO_RIGHTS: Caller = { kind: 'user', userId: '', identityProviderId: '', rights: [] };

/** How long typing pauses before a user id is looked up. */
const LOOKUP_DELAY_MS = 250;

/** How long typing pauses before the lists names are searched in are read (once each). */
const NAME_SEARCH_DELAY_MS = 150;

/**
 * One search box for any id, page or action (Ctrl/Cmd+K): what was typed or pasted is read as
 * each kind of id it could be (lib/values/id-recognition), and each reading offers the page it leads to;
 * recent items, pages and actions follow. A combobox over a listbox, operated from the input
 * (arrows, Enter; Esc closes and focus goes back where it was), with the count announced.
 */
export function SearchPalette({ opened, onClose, ...panel }: SearchPaletteProps) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title="Search"
      closeButtonProps={{ 'aria-label': 'Close search' }}
      size="lg"
      yOffset="8vh"
      classNames={{ body: classes.body }}
    >
      {/* The modal unmounts its content once closed: each opening starts empty. */}
      <SearchPanel onClose={onClose} {...panel} />
    </Modal>
  );
}

type SearchPanelProps = Omit<SearchPaletteProps, 'opened'>;

function SearchPanel({ onClose, links, actions, recentItemOf, signIn }: SearchPanelProps) {
  const navigate = useNavigate();
  const listId = useId();
  const [query, setQuery] = useState('');
  const [activeIndex, setActiveIndex] = useState(0);

  const caller = useQuery({ ...sessionQueries.caller(), meta: { errorDisplay: 'inline' } });
  const access = accessOf(caller.data ?? NO_RIGHTS);
  const vetting = useQuery({ ...vettingQueries.vetting(), meta: { errorDisplay: 'inline' } });
  const packagesByName = useMemo(() => packageVersionsByName(vetting.data), [vetting.data]);
  const packages = useMemo(() => packageSources(packagesByName), [packagesByName]);

  const recognition = useMemo(
    () => recognizeId(query, { packageNames: [...packagesByName.keys()] }),
    [query, packagesByName],
  );
  const template = useTemplateLookup(
    recognition.candidates.find((candidate) => candidate.kind === 'template'),
    packagesByName,
  );
  const party = usePartyLookup(
    recognition.candidates.find((candidate) => candidate.kind === 'party')?.party,
    access,
  );
  const contract = useContractLookup(
    recognition.candidates.find((candidate) => candidate.kind === 'contract')?.contractId,
    caller.data,
  );
  const { data: ledgerEnd } = useQuery({
    ...updateQueries.ledgerEnd(),
    enabled: recognition.candidates.some((candidate) => candidate.kind === 'offset'),
    retry: false,
    meta: { errorDisplay: 'inline' },
  });
  const userId = recognition.candidates.find((candidate) => candidate.kind === 'user')?.userId;
  const [lookedUpUserId] = useDebouncedValue(userId, LOOKUP_DELAY_MS);
  const user = useUserLookup(userId === lookedUpUserId ? userId : undefined, access);
  // Read once per opening (the panel unmounts on close); the shell records each visit. The page
  // it was opened on is where the user is, not where to go.
  const { pathname, search } = useLocation();
  const here = `${pathname}${search}`;
  const recent = useMemo(
    () =>
      recentItemsOf(
        readVisits().filter((visit) => visit !== here),
        recentItemOf,
      ),
    [recentItemOf, here],
  );

  const visibleActions = useMemo(
    () => actions.filter((action) => action.isVisible(access)),
    // `access` is derived on every render; what it allows only changes with the caller.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [actions, caller.data],
  );
  const [nameQuery] = useDebouncedValue(recognition.text, NAME_SEARCH_DELAY_MS);
  const nameSearch = useNameSearch({
    text: recognition.text,
    loadText: nameQuery,
    caller: caller.data,
    access,
    packages,
    links,
  });
  const fleetLinks = useMemo(() => ({ ids: links, signIn }), [links, signIn]);
  const fleetGroup = useFleetSearch(
    fleetSearchId(recognition.candidates, lookedUpUserId),
    fleetLinks,
  );
  const ownGroups = searchResults(recognition, {
    links,
    actions: visibleActions,
    recent,
    packagesByName,
    user,
    party,
    template,
    contract,
    ledgerEnd,
    identityProviderId: ownIdentityProviderId(caller.data, access),
    nameMatches: nameSearch.matches,
  });
  // Right after the id's own page here, where the eye already is.
  const firstOthers = ownGroups[0]?.label === GO_TO_GROUP ? 1 : 0;
  const groups = fleetGroup
    ? [...ownGroups.slice(0, firstOthers), fleetGroup, ...ownGroups.slice(firstOthers)]
    : ownGroups;
  const items = groups.flatMap((group) => group.items);
  const active = Math.min(activeIndex, Math.max(items.length - 1, 0));
  const optionId = (index: number) => `${listId}-option-${String(index)}`;

  const open = (item: SearchItem) => {
    onClose();
    // Another participant's pages are another app root (its own basename, caches and sign-in).
    if (item.isDocumentLink) globalThis.location.assign(item.to);
    else void navigate(item.to);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.nativeEvent.isComposing || items.length === 0) return;
    const move = (to: number) => {
      event.preventDefault();
      setActiveIndex((to + items.length) % items.length);
    };
    switch (event.key) {
      case 'ArrowDown':
        move(active + 1);
        break;
      case 'ArrowUp':
        move(active - 1);
        break;
      case 'PageDown':
        move(items.length - 1);
        break;
      case 'PageUp':
        move(0);
        break;
      case 'Enter': {
        const item = items[active];
        if (item) {
          event.preventDefault();
          open(item);
        }
        break;
      }
    }
  };

  const status = (() => {
    if (recognition.isTooLong) {
      return `Too long for an id: ids have at most ${String(MAX_SEARCH_LENGTH)} characters`;
    }
    if (items.length === 0) return 'No id, name, page or action matches this';
    return formatCount(items.length, 'result', 'results');
  })();
  const searchedNote =
    nameSearch.notes.length > 0 ? `${capitalize(nameSearch.notes.join('; '))}.` : undefined;

  // Options are numbered across the groups, as the keys move through them.
  const firstIndexOf = groups.map((_, groupIndex) =>
    groups.slice(0, groupIndex).reduce((count, group) => count + group.items.length, 0),
  );
  return (
    <Stack gap="sm">
      <TextInput
        data-autofocus
        role="combobox"
        aria-label="Id, page or action"
        aria-expanded={items.length > 0}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={items.length > 0 ? optionId(active) : undefined}
        autoComplete="off"
        spellCheck={false}
        placeholder="A name, or the start of an id: user, party, template, choice, package, update, contract"
        leftSection={<IconSearch size={18} aria-hidden />}
        value={query}
        onChange={(event) => {
          setQuery(event.currentTarget.value);
          setActiveIndex(0);
        }}
        onKeyDown={onKeyDown}
      />
      <VisuallyHidden role="status">{status}</VisuallyHidden>
      {items.length === 0 && (
        <Text size="sm" c="dimmed" py="md" ta="center" aria-hidden>
          {status}
        </Text>
      )}
      <div role="listbox" id={listId} aria-label="Results" className={classes.list}>
        {groups.map((group, groupIndex) => {
          const labelId = `${listId}-group-${String(groupIndex)}`;
          return (
            <div key={group.label} role="group" aria-labelledby={labelId}>
              <Text id={labelId} className={classes.groupLabel} size="xs" fw={700} c="dimmed">
                {group.label}
              </Text>
              {group.items.map((item, indexInGroup) => {
                const itemIndex = (firstIndexOf[groupIndex] ?? 0) + indexInGroup;
                return (
                  <SearchOption
                    key={item.key}
                    id={optionId(itemIndex)}
                    item={item}
                    isActive={itemIndex === active}
                    onPoint={() => {
                      setActiveIndex(itemIndex);
                    }}
                    onChoose={() => {
                      open(item);
                    }}
                  />
                );
              })}
            </div>
          );
        })}
      </div>
      {searchedNote !== undefined && (
        <Text size="xs" c="dimmed" aria-live="polite">
          {searchedNote}
        </Text>
      )}
      <Group gap="md" className={classes.hints} aria-hidden>
        <Text size="xs" c="dimmed">
          <Kbd size="xs">↑</Kbd> <Kbd size="xs">↓</Kbd> to move
        </Text>
        <Text size="xs" c="dimmed">
          <Kbd size="xs">Enter</Kbd> to open
        </Text>
        <Text size="xs" c="dimmed">
          <Kbd size="xs">Esc</Kbd> to close
        </Text>
      </Group>
    </Stack>
  );
}

type SearchOptionProps = {
  id: string;
  item: SearchItem;
  isActive: boolean;
  onPoint: () => void;
  onChoose: () => void;
};

function SearchOption({ id, item, isActive, onPoint, onChoose }: SearchOptionProps) {
  return (
    // The input keeps the focus and operates the list (aria-activedescendant): its keys are the
    // option's, and a click must not take the focus away from it.
    // eslint-disable-next-line jsx-a11y/click-events-have-key-events
    <div
      id={id}
      role="option"
      tabIndex={-1}
      aria-selected={isActive}
      className={classes.option}
      ref={(element) => {
        if (isActive) element?.scrollIntoView({ block: 'nearest' });
      }}
      onMouseDown={(event) => {
        event.preventDefault();
      }}
      onMouseMove={isActive ? undefined : onPoint}
      onClick={onChoose}
    >
      <item.icon size={18} aria-hidden className={classes.icon} />
      <div className={classes.text}>
        {item.kindLabel !== undefined && (
          <Badge size="xs" variant="light" color="gray" className={classes.kind}>
            {item.kindLabel}
          </Badge>
        )}
        {item.kindLabel !== undefined && ' '}
        <Text size="sm" fw={500} span>
          <Highlighted text={item.title} match={item.highlight?.title} />
        </Text>
        {item.value !== undefined && (
          <Text size="xs" ff="monospace" className={classes.value}>
            {' '}
            <Highlighted text={item.value} match={item.highlight?.value} />
          </Text>
        )}
        {item.aside !== undefined && (
          <Text size="xs" className={classes.value}>
            {' '}
            {item.aside.label} <Highlighted text={item.aside.text} match={item.highlight?.aside} />
          </Text>
        )}
        {item.description !== undefined && (
          <Text size="xs" c="dimmed">
            {' '}
            {item.description}
          </Text>
        )}
      </div>
    </div>
  );
}

/**
 * `text` with the part that matched marked. React renders each piece as text: ledger data never
 * becomes markup.
 */
function Highlighted({
  text,
  match,
}: {
  text: string;
  match: { start: number; end: number } | undefined;
}) {
  const pieces = highlightPieces(text, match);
  return (
    <>
      {pieces.map((piece, index) =>
        piece.isMatch ? (
          <mark key={index} className={classes.match}>
            {piece.text}
          </mark>
        ) : (
          piece.text
        ),
      )}
    </>
  );
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Each vetted package once, with its name and version. */
function packageSources(byName: ReadonlyMap<string, readonly PackageVersion[]>): PackageSource[] {
  return [...byName].flatMap(([name, versions]) =>
    versions.map(({ packageId, version }) => ({ packageId, name, version })),
  );
}

/** The versions of each package name the participant vets, on any synchronizer. */
function packageVersionsByName(
  vetting: readonly VettedPackages[] | undefined,
): Map<string, PackageVersion[]> {
  const byName = new Map<string, PackageVersion[]>();
  for (const { packages } of vetting ?? []) {
    for (const { packageId, packageName, packageVersion } of packages) {
      if (!packageName) continue;
      const versions = byName.get(packageName) ?? [];
      if (!versions.some((known) => known.packageId === packageId)) {
        versions.push({ packageId, version: packageVersion ?? '' });
      }
      byName.set(packageName, versions);
    }
  }
  return byName;
}

/** The IdP a user id opens in when its own is not known: the caller's, unless it sees them all. */
function ownIdentityProviderId(caller: Caller | undefined, access: Access): string {
  if (access.administeredIdentityProviderId !== undefined) {
    return access.administeredIdentityProviderId;
  }
  return caller?.kind === 'user' && !access.isParticipantAdmin ? caller.identityProviderId : '';
}

/**
 * Whether `userId` is a user, asked where the caller may ask: a participant admin through every
 * IdP, an IdP admin through its own. Others (and ids still being typed) are not looked up.
 */
function useUserLookup(userId: string | undefined, access: Access): UserLookup {
  const ownIdp = access.administeredIdentityProviderId;
  const everywhere = useQuery({
    ...userWhereaboutsQuery(userId ?? ''),
    enabled: userId !== undefined && access.isParticipantAdmin,
    retry: false,
  });
  const inOwnIdp = useQuery({
    ...userQueries.detail({ userId: userId ?? '', identityProviderId: ownIdp ?? '' }),
    enabled: userId !== undefined && ownIdp !== undefined,
    retry: false,
    meta: { errorDisplay: 'inline' },
  });
  if (userId === undefined) return { status: 'unknown' };
  if (access.isParticipantAdmin) {
    const where = everywhere.data;
    if (where === undefined || where === 'unknown') return { status: 'unknown' };
    return where === null
      ? { status: 'missing' }
      : { status: 'found', identityProviderId: where.identityProviderId };
  }
  if (ownIdp === undefined) return { status: 'unknown' };
  if (inOwnIdp.isSuccess) return { status: 'found', identityProviderId: ownIdp };
  return inOwnIdp.isError && isNotFound(inOwnIdp.error)
    ? { status: 'missing' }
    : { status: 'unknown' };
}

/**
 * Whether a template or interface id names a template or an interface, from its package's
 * decoded contents (cached for good, as the package page reads them).
 */
function useTemplateLookup(
  id: Extract<RecognizedId, { kind: 'template' }> | undefined,
  packagesByName: ReadonlyMap<string, readonly PackageVersion[]>,
): TemplateLookup {
  const packageId = id && templatePackageId(id, packagesByName);
  const contents = useQuery({
    ...packageQueries.contents(packageId ?? ''),
    enabled: packageId !== undefined,
    retry: false,
    meta: { errorDisplay: 'inline' },
  });
  if (id === undefined || packageId === undefined) return { status: 'unknown' };
  if (contents.data) return { status: templateKindIn(contents.data.modules, id.qualifiedName) };
  return contents.isError && isNotFound(contents.error)
    ? { status: 'missing' }
    : { status: 'unknown' };
}

/**
 * Whether a contract id is a contract the caller's parties can see, and still active, from the
 * contract service. Until the caller is known, or where the lookup fails (a participant without
 * the endpoint, a refusal), the item stays as it was: a link to the contract page.
 */
function useContractLookup(
  contractId: string | undefined,
  caller: Caller | undefined,
): ContractSearchLookup {
  const scope = caller === undefined ? undefined : readScopeOf(caller);
  const lookup = useQuery({
    ...contractQueries.lookup(contractId ?? '', scope ?? { kind: 'parties', parties: [] }),
    enabled: contractId !== undefined && scope !== undefined && !isEmptyScope(scope),
    retry: false,
    meta: { errorDisplay: 'inline' },
  });
  if (contractId === undefined || lookup.data === undefined) return { status: 'unknown' };
  return lookup.data;
}

/**
 * Whether the participant knows a party and hosts it, asked where the caller may ask (admins;
 * an IdP admin through its IdP, which sees other IdPs' parties as not hosted here).
 */
function usePartyLookup(party: string | undefined, access: Access): PartyLookup {
  const details = useQuery({
    ...partyQueries.detail({
      party: party ?? '',
      identityProviderId: access.administeredIdentityProviderId ?? '',
    }),
    enabled: party !== undefined && access.canManageUsers,
    retry: false,
    meta: { errorDisplay: 'inline' },
  });
  if (party === undefined || details.data === undefined) return { status: 'unknown' };
  if (details.data === null) return { status: 'missing' };
  return { status: details.data.isLocal ? 'local' : 'remote' };
}
