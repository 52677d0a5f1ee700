import { Menu, type MantineColorScheme } from '@mantine/core';
import type { ComponentType } from 'react';
import type { LazyMenuBodyProps } from './lazy-menu';

export type ColorSchemeMenuProps = LazyMenuBodyProps & {
  options: readonly { label: string; value: MantineColorScheme }[];
  icons: Record<MantineColorScheme, ComponentType<{ size: number; 'aria-hidden': boolean }>>;
  colorScheme: MantineColorScheme;
  onChange: (value: MantineColorScheme) => void;
};

/** The colour-scheme menu, loaded when its button is first wanted (LazyMenu). */
export function ColorSchemeMenu({
  trigger,
  isOpenedOnMount,
  options,
  icons,
  colorScheme,
  onChange,
}: ColorSchemeMenuProps) {
  return (
    <Menu position="bottom-end" withinPortal defaultOpened={isOpenedOnMount}>
      <Menu.Target>{trigger}</Menu.Target>
      <Menu.Dropdown>
        {options.map((option) => {
          const OptionIcon = icons[option.value];
          return (
            <Menu.Item
              key={option.value}
              leftSection={<OptionIcon size={16} aria-hidden />}
              onClick={() => {
                onChange(option.value);
              }}
              aria-current={option.value === colorScheme ? 'true' : undefined}
            >
              {option.label}
            </Menu.Item>
          );
        })}
      </Menu.Dropdown>
    </Menu>
  );
}
