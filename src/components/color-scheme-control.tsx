import { SegmentedControl, useMantineColorScheme, type MantineColorScheme } from '@mantine/core';

const OPTIONS: { label: string; value: MantineColorScheme }[] = [
  { label: 'Light', value: 'light' },
  { label: 'Dark', value: 'dark' },
  { label: 'System', value: 'auto' },
];

/** Light, dark or follow the system; MantineProvider's colour scheme manager remembers the choice. */
export function ColorSchemeControl() {
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  return (
    <SegmentedControl
      size="xs"
      aria-label="Colour scheme"
      data={OPTIONS}
      value={colorScheme}
      onChange={(value) => {
        setColorScheme(value);
      }}
    />
  );
}
