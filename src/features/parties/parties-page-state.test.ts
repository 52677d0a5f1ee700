import { describe, expect, it } from 'vitest';
import {
  currentPartiesPageToken,
  DEFAULT_PARTIES_PAGE_SIZE,
  firstPartiesPage,
  firstPartyPosition,
  nextPartiesPage,
  parsePartiesPageState,
  partiesPageNumber,
  previousPartiesPage,
  toPartiesPageSearchParams,
  withPartiesIdentityProvider,
  withPartiesPageSize,
} from './parties-page-state';

const parse = (search: string) => parsePartiesPageState(new URLSearchParams(search));

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
    expect(parse('page=2&token=a&token=b').pageTokens).toEqual(['a']);
    expect(parse('page=9&token=a').pageTokens).toEqual(['a']);
  });

  it('moves forwards and back along the trail', () => {
    const second = nextPartiesPage(firstPartiesPage, 'a');
    const third = nextPartiesPage(second, 'b');
    expect(partiesPageNumber(third)).toBe(3);
    expect(currentPartiesPageToken(third)).toBe('b');
    expect(firstPartyPosition(third)).toBe(2 * DEFAULT_PARTIES_PAGE_SIZE + 1);
    expect(previousPartiesPage(third)).toEqual(second);
    expect(currentPartiesPageToken(firstPartiesPage)).toBe('');
  });

  it('starts again from the first page on a new page size or IdP, keeping the other', () => {
    const third = { identityProviderId: 'acme', pageSize: 25, pageTokens: ['a', 'b'] };
    expect(withPartiesPageSize(third, 50)).toEqual({
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
