/** The user page's tabs, as they appear in its URL (`?tab=rights`). */
export const USER_TABS = ['profile', 'rights'] as const;
export type UserTab = (typeof USER_TABS)[number];

/** The tab a URL's `tab` parameter names; the profile for none or anything unknown. */
export function userTabOf(value: string | null): UserTab {
  return USER_TABS.find((tab) => tab === value) ?? 'profile';
}
