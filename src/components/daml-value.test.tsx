import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { readDamlValue, type ValueType } from '@/lib/values/daml-value';
import { DamlValue } from './daml-value';
import { IdentifierLinksContext } from './identifier-links';

const PARTY = `alice::1220${'ab'.repeat(32)}`;
const CONTRACT = `00${'cd'.repeat(40)}`;

const links = {
  party: (party: string) => `/parties/${encodeURIComponent(party)}`,
  contract: (contractId: string) => `/contracts/${encodeURIComponent(contractId)}`,
};

function show(value: unknown, type: ValueType) {
  return render(
    <MemoryRouter>
      <IdentifierLinksContext value={links}>
        <DamlValue value={readDamlValue(value, type)} />
      </IdentifierLinksContext>
    </MemoryRouter>,
  );
}

describe('DamlValue', () => {
  it('links parties and contract ids to their pages through the app’s builders, shortened', () => {
    const type: ValueType = {
      kind: 'record',
      fields: () => [
        { name: 'owner', type: { kind: 'party' } },
        { name: 'iou', type: { kind: 'contract-id' } },
        { name: 'due', type: { kind: 'date' } },
        { name: 'amount', type: { kind: 'numeric' } },
        { name: 'note', type: { kind: 'optional', item: { kind: 'text' } } },
      ],
    };
    const { container } = show(
      { owner: PARTY, iou: CONTRACT, due: '2026-01-31', amount: '12.50', note: null },
      type,
    );
    expect(screen.getByRole('link', { name: /^alice::/ })).toHaveAttribute(
      'href',
      `/parties/${encodeURIComponent(PARTY)}`,
    );
    expect(screen.getByRole('link', { name: /^alice::/ })).toHaveAttribute('title', PARTY);
    expect(screen.getByRole('link', { name: /^00cdcd/ })).toHaveAttribute(
      'href',
      `/contracts/${encodeURIComponent(CONTRACT)}`,
    );
    expect(container.querySelector('time')).toHaveAttribute('datetime', '2026-01-31');
    expect(container).toHaveTextContent(
      /^\{owner: alice::.*, due: 31 Jan 2026, amount: 12\.5, note: None\}$/,
    );
  });

  it('shows markup from the ledger as text, never as markup', () => {
    const { container } = show('<img src=x onerror=alert(1)>', { kind: 'text' });
    expect(container.querySelector('img')).toBeNull();
    expect(container).toHaveTextContent('<img src=x onerror=alert(1)>');
  });

  it('says how many items it left out', () => {
    const { container } = show(
      Array.from({ length: 30 }, (_, index) => String(index)),
      { kind: 'list', item: { kind: 'int64' } },
    );
    expect(container).toHaveTextContent(/, 19, \+10 more\]$/);
  });
});
