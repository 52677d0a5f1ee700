import { createTheme, type CSSVariablesResolver } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'indigo',
  // Shade 7 keeps white text on filled buttons at 5:1 in both schemes (shade 6 is 4.3:1).
  primaryShade: { light: 7, dark: 7 },
  defaultRadius: 'md',
  fontFamilyMonospace: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
  components: {
    // Alerts quote ids (parties, packages, contracts) that have no break opportunity: on a phone
    // one would widen the alert past the screen and clip every line of it.
    Alert: { styles: { body: { minWidth: 0 }, message: { overflowWrap: 'anywhere' } } },
    // Mantine's close button is an icon alone: without a name, axe (and a screen reader) finds a
    // button that says nothing.
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Close dialog' } } },
  },
});

// Colours that carry status in light variants (badges, alerts, nav links).
const STATUS_COLORS = [
  'green',
  'red',
  'orange',
  'yellow',
  'blue',
  'gray',
  'indigo',
  'teal',
] as const;

/**
 * Mantine's defaults for dimmed text and light-variant text (shade 6 on shade 0) fall below the
 * WCAG AA contrast of 4.5:1 in light mode, which the e2e axe scan checks. Even shade 9 of green is
 * too light on its own tint (3.9:1), hence the mix towards black.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    // Links on white: indigo 7 is 5:1.
    '--mantine-color-anchor': 'var(--mantine-color-indigo-7)',
    ...Object.fromEntries(
      STATUS_COLORS.map((color) => [
        `--mantine-color-${color}-light-color`,
        `color-mix(in srgb, var(--mantine-color-${color}-9) 70%, black)`,
      ]),
    ),
  },
  dark: {
    '--mantine-color-dimmed': 'var(--mantine-color-dark-1)',
    // Links on the dark body: indigo 3 is 6.8:1 (the filled shade would be 3.1:1).
    '--mantine-color-anchor': 'var(--mantine-color-indigo-3)',
  },
});
