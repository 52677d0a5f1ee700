import {
  ActionIcon,
  Menu,
  SegmentedControl,
  useMantineColorScheme,
  type MantineColorScheme,
} from '@mantine/core';
import { IconDeviceDesktop, IconMoon, IconSun } from '@tabler/icons-react';

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
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <ActionIcon
            hiddenFrom="sm"
            variant="subtle"
            color="gray"
            size="lg"
            aria-label={`Colour scheme: ${current}`}
          >
            <CurrentIcon size={18} aria-hidden />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          {OPTIONS.map((option) => {
            const OptionIcon = ICONS[option.value];
            return (
              <Menu.Item
                key={option.value}
                leftSection={<OptionIcon size={16} aria-hidden />}
                onClick={() => {
                  setColorScheme(option.value);
                }}
                aria-current={option.value === colorScheme ? 'true' : undefined}
              >
                {option.label}
              </Menu.Item>
            );
          })}
        </Menu.Dropdown>
      </Menu>
    </>
  );
}
