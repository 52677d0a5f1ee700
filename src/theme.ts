import { createTheme, type CSSVariablesResolver } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'indigo',
  defaultRadius: 'md',
  fontFamilyMonospace: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
});

// Colours that carry status in light variants (badges, alerts, nav links).
const STATUS_COLORS = ['green', 'red', 'orange', 'gray', 'indigo', 'teal'] as const;

/**
 * Mantine's defaults for dimmed text and light-variant text (shade 6 on shade 0) fall below the
 * WCAG AA contrast of 4.5:1 in light mode, which the e2e axe scan checks. Even shade 9 of green is
 * too light on its own tint (3.9:1), hence the mix towards black.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    ...Object.fromEntries(
      STATUS_COLORS.map((color) => [
        `--mantine-color-${color}-light-color`,
        `color-mix(in srgb, var(--mantine-color-${color}-9) 70%, black)`,
      ]),
    ),
  },
  dark: {
    '--mantine-color-dimmed': 'var(--mantine-color-dark-1)',
  },
});
