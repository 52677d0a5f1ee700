import { describe, expect, it } from 'vitest';
import {
  DEFAULT_USERS_PAGE_SIZE,
  firstUsersPage,
  parseUsersPageState,
  toUsersPageSearchParams,
} from './users-page-state';

const parse = (search: string) => parseUsersPageState(new URLSearchParams(search));

// The trail's rules (cut short, empty tokens, walking) are tested in @/lib/navigation/page-trail.
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

  it('trusts the token trail over a page number it cannot reach, and cuts it at a lower one', () => {
    expect(parse('page=5&token=a')).toEqual({
      pageSize: DEFAULT_USERS_PAGE_SIZE,
      pageTokens: ['a'],
    });
    expect(parse('page=2&token=a&token=b&token=c').pageTokens).toEqual(['a']);
  });
});
