/**
 * The search box's shortcut: Ctrl+K, or Cmd+K on Apple devices, where Ctrl+K is a text field's
 * "delete to the end of the line". Written here rather than with Mantine's hotkey and OS hooks:
 * one key is all the shell listens for, and those hooks weighed 0.7 KB gzip in its first chunk.
 */

/** macOS, iPadOS and iOS, by the user agent (an iPad asking for desktop pages says "Macintosh"). */
export function isApplePlatform(userAgent: string): boolean {
  return /Macintosh|MacIntel|MacPPC|Mac68K|iPhone|iPad|iPod/.test(userAgent);
}

type ShortcutKey = Pick<
  KeyboardEvent,
  'key' | 'code' | 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey'
>;

/** The platform's modifier and K alone; K by its character, or by its place on other layouts. */
export function isSearchShortcut(event: ShortcutKey, isApple: boolean): boolean {
  const modifier = isApple ? event.metaKey && !event.ctrlKey : event.ctrlKey && !event.metaKey;
  return (
    modifier &&
    !event.altKey &&
    !event.shiftKey &&
    (event.key.toLowerCase() === 'k' || event.code === 'KeyK')
  );
}
