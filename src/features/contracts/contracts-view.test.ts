import { describe, expect, it } from 'vitest';
import { MAX_SEARCH_LENGTH, MAX_VIEW_PARTIES, readContractsView } from './contracts-view';

const read = (link: string) =>
  readContractsView(new URL(link, 'http://console.example').searchParams);

describe('the /contracts view in the URL', () => {
  it('reads parties, offset, template and search', () => {
    expect(
      read(
        '/contracts?party=alice%3A%3A1220ab&party=bob&offset=42&template=%23pkg%3AMain%3AIou&q=USD',
      ),
    ).toEqual({
      parties: ['alice::1220ab', 'bob'],
      offset: 42,
      template: '#pkg:Main:Iou',
      search: 'USD',
    });
    expect(read('/contracts')).toEqual({ parties: [], search: '' });
  });

  it('drops what a crafted link could abuse: too many parties, huge ids, odd offsets', () => {
    const params = new URLSearchParams();
    for (let i = 0; i < 80; i++) params.append('party', `p${String(i)}`);
    params.append('party', 'x'.repeat(600));
    params.set('offset', '-1');
    params.set('template', 'y'.repeat(600));
    params.set('interface', '#pkg:M:I');
    params.set('q', 'z'.repeat(500));
    const view = readContractsView(params);
    expect(view.parties).toHaveLength(MAX_VIEW_PARTIES);
    expect(view.offset).toBeUndefined();
    // An unusable template leaves the interface, as if the template were not there.
    expect(view.template).toBeUndefined();
    expect(view.interface).toBe('#pkg:M:I');
    expect(view.search).toHaveLength(MAX_SEARCH_LENGTH);
    expect(readContractsView(new URLSearchParams('offset=99999999999999999999')).offset).toBe(
      undefined,
    );
  });
});
