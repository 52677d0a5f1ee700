import { describe, expect, it } from 'vitest';
import {
  currentUsersPageToken,
  DEFAULT_USERS_PAGE_SIZE,
  firstUserPosition,
  firstUsersPage,
  nextUsersPage,
  parseUsersPageState,
  previousUsersPage,
  toUsersPageSearchParams,
  usersPageNumber,
  withUsersPageSize,
} from './users-page-state';

const parse = (search: string) => parseUsersPageState(new URLSearchParams(search));

describe('users page state', () => {
  it('is the first page of the default size without params', () => {
    expect(parse('')).toEqual({ pageSize: DEFAULT_USERS_PAGE_SIZE, pageTokens: [] });
    expect(toUsersPageSearchParams(firstUsersPage).toString()).toBe('');
  });

  it('round-trips size, page and the token trail through the URL', () => {
    const state = { pageSize: 25, pageTokens: ['CgVhbGljZQ==', 'CgNib2I='] };
    const search = toUsersPageSearchParams(state).toString();
    expect(search).toBe('size=25&page=3&token=CgVhbGljZQ%3D%3D&token=CgNib2I%3D');
    expect(parse(search)).toEqual(state);
  });

  it('ignores page sizes that are not offered', () => {
    expect(parse('size=7').pageSize).toBe(DEFAULT_USERS_PAGE_SIZE);
    expect(parse('size=abc').pageSize).toBe(DEFAULT_USERS_PAGE_SIZE);
    expect(parse('size=1000').pageSize).toBe(1000);
  });

  it('trusts the token trail over a page number it cannot reach', () => {
    expect(parse('page=5&token=a')).toEqual({
      pageSize: DEFAULT_USERS_PAGE_SIZE,
      pageTokens: ['a'],
    });
    expect(parse('page=3')).toEqual({ pageSize: DEFAULT_USERS_PAGE_SIZE, pageTokens: [] });
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
    const page2 = nextUsersPage(firstUsersPage, 't1');
    const page3 = nextUsersPage(page2, 't2');
    expect(usersPageNumber(page3)).toBe(3);
    expect(currentUsersPageToken(page3)).toBe('t2');
    expect(firstUserPosition(page3)).toBe(2 * DEFAULT_USERS_PAGE_SIZE + 1);
    expect(previousUsersPage(page3)).toEqual(page2);
    expect(currentUsersPageToken(previousUsersPage(page2))).toBe('');
  });

  it('starts from the first page when the page size changes', () => {
    expect(withUsersPageSize(250)).toEqual({ pageSize: 250, pageTokens: [] });
  });
});
