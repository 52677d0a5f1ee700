import { Box, Button, Kbd } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { notify } from '@/components/feedback/notify';
import { rememberVisit } from '@/features/search/visits';
import { isApplePlatform, isSearchShortcut } from './search-shortcut';

// The palette (its results, id recognition and queries) stays out of the first route's chunk,
// whose JS budget is 250 KB gzip: only this button and the key listener are in the shell.
const loadPalette = () => import('./search-palette-host');
const SearchPaletteHost = lazy(() =>
  loadPalette().then(
    (module) => ({ default: module.SearchPaletteHost }),
    // Offline, or a new version deployed since the page loaded: say so here rather than let the
    // failure reach the route's error page, which would replace the page the user is on.
    () => ({ default: SearchUnavailable }),
  ),
);

/**
 * The header's search button, and Ctrl+K (Cmd+K on Apple devices) anywhere, inputs included,
 * to open the search box. The palette is fetched when the pointer or focus reaches the button.
 */
export function SearchTrigger() {
  const [opened, { open, close }] = useDisclosure(false);
  const [isMounted, setMounted] = useState(false);
  const isApple = isApplePlatform(navigator.userAgent);
  const shortcut = isApple ? '⌘K' : 'Ctrl+K';
  const show = () => {
    setMounted(true);
    open();
  };
  // In inputs too: the box is for jumping away from whatever has the focus.
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!isSearchShortcut(event, isApple)) return;
      event.preventDefault();
      setMounted(true);
      open();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => {
      window.removeEventListener('keydown', onKeyDown);
    };
  }, [isApple, open]);
  const preload = () => void loadPalette();

  return (
    <>
      <Button
        variant="default"
        size="compact-sm"
        px={{ base: 6, sm: 'xs' }}
        // WCAG 2.5.3: the name is the visible text ("Search" and the key hint), in that order.
        aria-label={`Search ${shortcut}`}
        aria-keyshortcuts={isApple ? 'Meta+K' : 'Control+K'}
        leftSection={<IconSearch size={16} aria-hidden />}
        rightSection={
          <Box component="span" visibleFrom="sm">
            <Kbd size="xs">{shortcut}</Kbd>
          </Box>
        }
        styles={{ section: { marginInline: 0 } }}
        onClick={show}
        onPointerEnter={preload}
        onFocus={preload}
      >
        {/* The space keeps "Search" and the key hint two words in the name axe compares. */}
        <Box component="span" visibleFrom="sm" px={6} c="dimmed" fw={400}>
          Search
        </Box>{' '}
      </Button>
      <VisitRecorder />
      {isMounted && (
        <Suspense fallback={null}>
          <SearchPaletteHost opened={opened} onClose={close} />
        </Suspense>
      )}
    </>
  );
}

/**
 * Keeps each page visited for the search box's recent items. Its own component, so a navigation
 * re-renders only it, not the header.
 */
function VisitRecorder() {
  const { pathname, search } = useLocation();
  useEffect(() => {
    rememberVisit(`${pathname}${search}`);
  }, [pathname, search]);
  return null;
}

/** Said in a toast, not a dialog: Mantine's Modal is in the palette's chunk, which did not load. */
function SearchUnavailable({
  opened,
  onClose,
}: {
  opened: boolean;
  onClose: () => void;
}): ReactNode {
  useEffect(() => {
    if (!opened) return;
    notify.error(
      new Error('The search box could not be loaded. Reload the page to try again.'),
      'Search unavailable',
    );
    onClose();
  }, [opened, onClose]);
  return null;
}
