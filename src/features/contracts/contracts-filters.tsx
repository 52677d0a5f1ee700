import { Button, Group, MultiSelect, Select, TagsInput, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { memo, useState } from 'react';
import { partyQueries } from '@/api/parties';
import type { ReadScope } from '@/api/updates';
import { FIELD_WIDTH } from '@/components/form/field-widths';
import type { InterfaceEntry, TemplateEntry } from '@/hooks/template-catalog';
import {
  MAX_ID_LENGTH,
  MAX_SEARCH_LENGTH,
  MAX_VIEW_PARTIES,
  type ContractsView,
} from './contracts-view';

export type ContractsFiltersProps = {
  view: ContractsView;
  onViewChange: (view: ContractsView) => void;
  scope: ReadScope;
  templates: readonly TemplateEntry[];
  interfaces: readonly InterfaceEntry[];
  /** The ledger end the list is at when no offset is chosen. */
  ledgerEnd: number | undefined;
  onRefresh: () => void;
};

const TEMPLATE_PREFIX = 'template:';
const INTERFACE_PREFIX = 'interface:';

/** Templates and interfaces by package name (every version at once), as one grouped list. */
type OptionGroup = { group: string; items: { value: string; label: string }[] };

function filterOptions(
  templates: readonly TemplateEntry[],
  interfaces: readonly InterfaceEntry[],
): OptionGroup[] {
  const options = (entries: readonly (TemplateEntry | InterfaceEntry)[], prefix: string) => {
    const byName = new Map<string, { value: string; label: string }>();
    for (const entry of entries) {
      const name = entry.byName.split(':').slice(1).join(':');
      byName.set(entry.byName, {
        value: `${prefix}${entry.byName}`,
        label: `${name} (${entry.packageName})`,
      });
    }
    return [...byName.values()].sort((a, b) => a.label.localeCompare(b.label));
  };
  return [
    { group: 'Templates', items: options(templates, TEMPLATE_PREFIX) },
    { group: 'Interfaces', items: options(interfaces, INTERFACE_PREFIX) },
  ];
}

function selectedFilter(view: ContractsView): string | null {
  if (view.template !== undefined) return `${TEMPLATE_PREFIX}${view.template}`;
  if (view.interface !== undefined) return `${INTERFACE_PREFIX}${view.interface}`;
  return null;
}

/** The view without its template and interface, then with the one picked. */
function withFilter(view: ContractsView, picked: string | null): ContractsView {
  const rest: ContractsView = {
    parties: view.parties,
    search: view.search,
    ...(view.offset === undefined ? {} : { offset: view.offset }),
  };
  if (picked?.startsWith(TEMPLATE_PREFIX)) {
    return { ...rest, template: picked.slice(TEMPLATE_PREFIX.length) };
  }
  if (picked?.startsWith(INTERFACE_PREFIX)) {
    return { ...rest, interface: picked.slice(INTERFACE_PREFIX.length) };
  }
  return rest;
}

function withOffset(view: ContractsView, offset: number | undefined): ContractsView {
  const rest: ContractsView = {
    parties: view.parties,
    search: view.search,
    ...(view.template === undefined ? {} : { template: view.template }),
    ...(view.interface === undefined ? {} : { interface: view.interface }),
  };
  return offset === undefined ? rest : { ...rest, offset };
}

/**
 * Whose contracts, at which offset, of which template or interface, and a text to match; every
 * change goes to the URL (the page passes it back as `view`).
 */
export const ContractsFilters = memo(function ContractsFilters({
  view,
  onViewChange,
  scope,
  templates,
  interfaces,
  ledgerEnd,
  onRefresh,
}: ContractsFiltersProps) {
  const [search, setSearch] = useState(view.search);
  // Another change takes the search as typed, even while its own commit is still waiting.
  const current: ContractsView = { ...view, search };
  const commitSearch = useDebouncedCallback((text: string) => {
    onViewChange({ ...view, search: text });
  }, 300);
  const [offsetText, setOffsetText] = useState(
    view.offset === undefined ? '' : String(view.offset),
  );
  const offsetError = /^\d{0,16}$/.test(offsetText.trim()) ? undefined : 'A whole number, or empty';
  const commitOffset = () => {
    const text = offsetText.trim();
    if (offsetError !== undefined) return;
    const offset = text === '' ? undefined : Number(text);
    if (offset !== view.offset) onViewChange(withOffset(current, offset));
  };

  const options = filterOptions(templates, interfaces);
  const picked = selectedFilter(view);
  // A filter from a shared link that no decoded package declares is still offered, as typed.
  const data: OptionGroup[] =
    picked !== null && !options.some((group) => group.items.some((item) => item.value === picked))
      ? [
          ...options,
          {
            group: 'From the link',
            items: [{ value: picked, label: picked.replace(/^\w+:/, '') }],
          },
        ]
      : options;

  return (
    <Group align="flex-end" gap="sm" wrap="wrap">
      <PartiesFilter
        scope={scope}
        parties={view.parties}
        onChange={(parties) => {
          onViewChange({ ...current, parties: parties.slice(0, MAX_VIEW_PARTIES) });
        }}
      />
      <Select
        label="Template or interface"
        placeholder="Every template"
        data={data}
        value={picked}
        onChange={(value) => {
          onViewChange(withFilter(current, value));
        }}
        searchable
        clearable
        limit={200}
        nothingFoundMessage="No template or interface of that name"
        w="100%"
        maw={FIELD_WIDTH.medium}
      />
      <TextInput
        label="At offset"
        placeholder={ledgerEnd === undefined ? 'Ledger end' : `Ledger end (${String(ledgerEnd)})`}
        value={offsetText}
        onChange={(event) => {
          setOffsetText(event.currentTarget.value);
        }}
        onBlur={commitOffset}
        onKeyDown={(event) => {
          if (event.key === 'Enter') commitOffset();
        }}
        error={offsetError}
        inputMode="numeric"
        maxLength={16}
        w="100%"
        maw={FIELD_WIDTH.short}
      />
      <TextInput
        label="Search arguments"
        placeholder="Text in any field"
        value={search}
        onChange={(event) => {
          const text = event.currentTarget.value.slice(0, MAX_SEARCH_LENGTH);
          setSearch(text);
          commitSearch(text);
        }}
        maxLength={MAX_SEARCH_LENGTH}
        w="100%"
        maw={FIELD_WIDTH.short}
      />
      <Button variant="default" onClick={onRefresh}>
        Refresh
      </Button>
    </Group>
  );
});

function PartiesFilter({
  scope,
  parties,
  onChange,
}: {
  scope: ReadScope;
  parties: readonly string[];
  onChange: (parties: string[]) => void;
}) {
  const options = useQuery({ ...partyQueries.options(''), enabled: scope.kind === 'any-party' });
  if (scope.kind === 'parties') {
    return (
      <MultiSelect
        label="Parties"
        placeholder={parties.length === 0 ? 'Every party you can read' : undefined}
        data={[...new Set([...scope.parties, ...parties])]}
        value={[...parties]}
        onChange={onChange}
        searchable
        clearable
        w="100%"
        maw={FIELD_WIDTH.long}
      />
    );
  }
  return (
    <TagsInput
      label="Parties"
      placeholder={parties.length === 0 ? 'Every party' : undefined}
      data={(options.data?.parties ?? []).map((party) => party.party)}
      value={[...parties]}
      onChange={(next) => {
        onChange(
          next.map((party) => party.trim()).filter((party) => party.length <= MAX_ID_LENGTH),
        );
      }}
      maxTags={MAX_VIEW_PARTIES}
      limit={50}
      splitChars={[',', ' ']}
      acceptValueOnBlur
      clearable
      w="100%"
      maw={FIELD_WIDTH.long}
    />
  );
}
