import { describe, expect, it } from 'vitest';
import {
  appendPageTrail,
  currentPageToken,
  firstRowPosition,
  nextPage,
  pageNumber,
  pageStatusText,
  parsePageTrail,
  previousPage,
  withPageSize,
  type PageTrail,
} from './page-trail';

const options = { sizes: [25, 100, 1000], defaultSize: 100 };
const parse = (search: string) => parsePageTrail(new URLSearchParams(search), options);
const toSearch = (trail: PageTrail) =>
  appendPageTrail(new URLSearchParams(), trail, options).toString();
const firstPage: PageTrail = { pageSize: 100, pageTokens: [] };

describe('page trail', () => {
  it('is the first page of the default size without params, and adds none for it', () => {
    expect(parse('')).toEqual(firstPage);
    expect(toSearch(firstPage)).toBe('');
  });

  it('round-trips size, page and the token trail through the URL', () => {
    const trail = { pageSize: 25, pageTokens: ['CgVhbGljZQ==', 'CgNib2I='] };
    const search = toSearch(trail);
    expect(search).toBe('size=25&page=3&token=CgVhbGljZQ%3D%3D&token=CgNib2I%3D');
    expect(parse(search)).toEqual(trail);
  });

  it('appends after params already set', () => {
    const params = new URLSearchParams('idp=acme');
    expect(appendPageTrail(params, { pageSize: 25, pageTokens: ['a'] }, options)).toBe(params);
    expect(params.toString()).toBe('idp=acme&size=25&page=2&token=a');
  });

  it('ignores page sizes that are not offered', () => {
    expect(parse('size=7').pageSize).toBe(100);
    expect(parse('size=abc').pageSize).toBe(100);
    expect(parse('size=1000').pageSize).toBe(1000);
  });

  it('trusts the token trail over a page number it cannot reach', () => {
    expect(parse('page=5&token=a')).toEqual({ pageSize: 100, pageTokens: ['a'] });
    expect(parse('page=3')).toEqual(firstPage);
  });

  it('cuts the trail short when the page number was lowered by hand', () => {
    expect(parse('page=2&token=a&token=b&token=c').pageTokens).toEqual(['a']);
    expect(parse('page=1&token=a').pageTokens).toEqual([]);
  });

  it('ignores empty tokens and nonsense page numbers', () => {
    expect(parse('token=&token=a&page=x').pageTokens).toEqual(['a']);
    expect(parse('token=a&page=0').pageTokens).toEqual(['a']);
  });

  it('walks forward with the returned token and back by dropping it', () => {
    const page2 = nextPage(firstPage, 't1');
    const page3 = nextPage(page2, 't2');
    expect(pageNumber(page3)).toBe(3);
    expect(currentPageToken(page3)).toBe('t2');
    expect(firstRowPosition(page3)).toBe(201);
    expect(previousPage(page3)).toEqual(page2);
    expect(currentPageToken(previousPage(page2))).toBe('');
  });

  it('starts from the first page on a new page size, keeping the rest of the state', () => {
    const state = { pageSize: 25, pageTokens: ['a', 'b'], identityProviderId: 'acme' };
    expect(withPageSize(state, 250)).toEqual({
      pageSize: 250,
      pageTokens: [],
      identityProviderId: 'acme',
    });
  });

  it('says which rows a page shows, and how many match a filter', () => {
    const page2 = nextPage(firstPage, 't1');
    expect(pageStatusText(page2, 'users', 100)).toBe('Showing users 101–200');
    expect(pageStatusText(page2, 'users', 1, 1)).toBe('Showing 1 match among users 101–101');
    expect(pageStatusText(page2, 'users', 0)).toBe('No more users');
    expect(pageStatusText(page2, 'users', 0, 0)).toBe('Showing 0 matches among no users');
  });
});
