/** The user page's tabs, in order, as they appear in its URL (`?tab=rights`). */
export const USER_TABS = ['profile', 'rights', 'access', 'offboard', 'activity'] as const;
export type UserTab = (typeof USER_TABS)[number];

/** Each tab's label, which is also its accessible name. */
export const USER_TAB_LABELS: Record<UserTab, string> = {
  profile: 'Profile',
  rights: 'Rights',
  access: 'Access check',
  offboard: 'Offboard',
  activity: 'Activity',
};

/**
 * The tab a URL's `tab` parameter names, among those the caller may open; the profile for none,
 * an unknown one, or one the caller cannot use (an old link, a hand-edited URL).
 */
export function userTabOf(
  value: string | null,
  available: readonly UserTab[] = USER_TABS,
): UserTab {
  return available.find((tab) => tab === value) ?? 'profile';
}

/** The tabs a caller sees: offboarding only for those who may change the user. */
export function userTabsFor(canEdit: boolean): readonly UserTab[] {
  return canEdit ? USER_TABS : USER_TABS.filter((tab) => tab !== 'offboard');
}

/** The user page's search with `tab` set; the profile, being the default, leaves no parameter. */
export function withUserTab(search: URLSearchParams, tab: UserTab): URLSearchParams {
  const next = new URLSearchParams(search);
  if (tab === 'profile') next.delete('tab');
  else next.set('tab', tab);
  return next;
}
