import { describe, expect, it } from 'vitest';
import { withPageSize } from '@/lib/navigation/page-trail';
import {
  DEFAULT_PARTIES_PAGE_SIZE,
  firstPartiesPage,
  parsePartiesPageState,
  toPartiesPageSearchParams,
  withPartiesIdentityProvider,
} from './parties-page-state';

const parse = (search: string) => parsePartiesPageState(new URLSearchParams(search));

// The trail's rules (cut short, empty tokens, walking) are tested in @/lib/navigation/page-trail.
describe('parties page state', () => {
  it('is the first page of the default size and the default IdP without params', () => {
    expect(parse('')).toEqual(firstPartiesPage);
    expect(toPartiesPageSearchParams(firstPartiesPage).toString()).toBe('');
  });

  it('round-trips IdP, size, page and the token trail through the URL', () => {
    const state = { identityProviderId: 'acme', pageSize: 25, pageTokens: ['YQ==', 'Yg=='] };
    const search = toPartiesPageSearchParams(state).toString();
    expect(search).toBe('idp=acme&size=25&page=3&token=YQ%3D%3D&token=Yg%3D%3D');
    expect(parse(search)).toEqual(state);
  });

  it('ignores page sizes that are not offered', () => {
    expect(parse('size=7').pageSize).toBe(DEFAULT_PARTIES_PAGE_SIZE);
    expect(parse('size=10000').pageSize).toBe(DEFAULT_PARTIES_PAGE_SIZE);
    expect(parse('size=1000').pageSize).toBe(1000);
  });

  it('cuts the trail at a lower page number and trusts it over a higher one', () => {
    expect(parse('idp=acme&page=2&token=a&token=b').pageTokens).toEqual(['a']);
    expect(parse('page=9&token=a').pageTokens).toEqual(['a']);
  });

  it('starts again from the first page on a new page size or IdP, keeping the other', () => {
    const third = { identityProviderId: 'acme', pageSize: 25, pageTokens: ['a', 'b'] };
    expect(withPageSize(third, 50)).toEqual({
      identityProviderId: 'acme',
      pageSize: 50,
      pageTokens: [],
    });
    expect(withPartiesIdentityProvider(third, '')).toEqual({
      identityProviderId: '',
      pageSize: 25,
      pageTokens: [],
    });
  });
});
