import { ActionIcon, useMantineColorScheme, type MantineColorScheme } from '@mantine/core';
import { IconDeviceDesktop, IconMoon, IconSun } from '@tabler/icons-react';
import { LazyMenu } from './lazy-menu';

const loadMenu = async () => (await import('./color-scheme-menu')).ColorSchemeMenu;

const OPTIONS: { label: string; value: MantineColorScheme }[] = [
  { label: 'Light', value: 'light' },
  { label: 'Dark', value: 'dark' },
  { label: 'System', value: 'auto' },
];

const ICONS = { light: IconSun, dark: IconMoon, auto: IconDeviceDesktop } as const;

/**
 * Light, dark or follow the system; MantineProvider's colour scheme manager remembers the choice.
 * One icon with a menu at every width: a segmented control measured and animated its indicator in
 * the shell's first render and weighed 1.7 KB gzip in the first chunk, for a choice made rarely.
 */
export function ColorSchemeControl() {
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  const CurrentIcon = ICONS[colorScheme];
  const current = OPTIONS.find((option) => option.value === colorScheme)?.label ?? 'System';
  return (
    <LazyMenu
      trigger={
        <ActionIcon
          variant="subtle"
          color="gray"
          size="lg"
          aria-label={`Colour scheme: ${current}`}
        >
          <CurrentIcon size={18} aria-hidden />
        </ActionIcon>
      }
      load={loadMenu}
      menuProps={{ options: OPTIONS, icons: ICONS, colorScheme, onChange: setColorScheme }}
    />
  );
}
