import {
  ActionIcon,
  SegmentedControl,
  useMantineColorScheme,
  type MantineColorScheme,
} from '@mantine/core';
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
 * Three labelled segments where the header has room, one icon with a menu on phones.
 */
export function ColorSchemeControl() {
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  const CurrentIcon = ICONS[colorScheme];
  const current = OPTIONS.find((option) => option.value === colorScheme)?.label ?? 'System';
  return (
    <>
      <SegmentedControl
        visibleFrom="sm"
        size="xs"
        aria-label="Colour scheme"
        data={OPTIONS}
        value={colorScheme}
        onChange={(value) => {
          setColorScheme(value);
        }}
      />
      <LazyMenu
        trigger={
          <ActionIcon
            hiddenFrom="sm"
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
    </>
  );
}
