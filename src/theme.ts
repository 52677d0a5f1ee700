import { createTheme, type CSSVariablesResolver } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'indigo',
  // Shade 7 keeps white text on filled buttons at 5:1 in both schemes (shade 6 is 4.3:1); the
  // primary's filled colour itself is deeper still (cssVariablesResolver below).
  primaryShade: { light: 7, dark: 7 },
  defaultRadius: 'md',
  fontFamilyMonospace: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
  // Who asks the system for less motion gets dialogs, menus and toasts that appear in place: no
  // slide or fade, and so no button still moving under a click (WCAG 2.3.3).
  respectReducedMotion: true,
  components: {
    // Alerts quote ids (parties, packages, contracts) that have no break opportunity: on a phone
    // one would widen the alert past the screen and clip every line of it.
    Alert: { styles: { body: { minWidth: 0 }, message: { overflowWrap: 'anywhere' } } },
    // Mantine's close button is an icon alone: without a name, axe (and a screen reader) finds a
    // button that says nothing.
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Close dialog' } } },
  },
});

// Every colour of Mantine's palette but dark: light variants (badges, alerts, nav links) of any of
// them carry status or a right's kind (grape).
const LIGHT_VARIANT_COLORS = [
  'gray',
  'red',
  'pink',
  'grape',
  'violet',
  'indigo',
  'blue',
  'cyan',
  'teal',
  'green',
  'lime',
  'yellow',
  'orange',
] as const;

/** Indigo 9 towards black: white on it is 8.4:1, it on white 8.4:1 (indigo 7 is 5:1, 9 is 6.8:1). */
const DEEP_INDIGO = 'color-mix(in srgb, var(--mantine-color-indigo-9) 85%, black)';
const DEEPER_INDIGO = 'color-mix(in srgb, var(--mantine-color-indigo-9) 75%, black)';

// Per scheme: Mantine sets these per scheme, which a scheme-less value would not override.
const DEEP_FILLED = {
  '--mantine-primary-color-filled': DEEP_INDIGO,
  '--mantine-primary-color-filled-hover': DEEPER_INDIGO,
  '--mantine-color-indigo-filled': DEEP_INDIGO,
  '--mantine-color-indigo-filled-hover': DEEPER_INDIGO,
};

/**
 * Text meets WCAG's enhanced contrast (AAA, 7:1) in both schemes, which the e2e axe scan checks
 * with every rule axe has (e2e/accessibility.spec.ts). Mantine's defaults reach about 4.5–5:1:
 * dimmed text, links, light-variant text (shade 9 of green on its own tint is 3.9:1) and white on
 * the filled primary colour.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    ...DEEP_FILLED,
    // Gray 8 is 9.3:1 even on a blue tint (gray 7 is 6.6:1 there).
    '--mantine-color-dimmed': 'var(--mantine-color-gray-8)',
    '--mantine-color-anchor': DEEP_INDIGO,
    // Form errors: red 9 towards black is 8.3:1 on white (Mantine's red 6 is 3.3:1).
    '--mantine-color-error': 'color-mix(in srgb, var(--mantine-color-red-9) 75%, black)',
    // Yellow, the lightest, is 7.1:1 on its shade 1 at 55%.
    ...Object.fromEntries(
      LIGHT_VARIANT_COLORS.map((color) => [
        `--mantine-color-${color}-light-color`,
        `color-mix(in srgb, var(--mantine-color-${color}-9) 55%, black)`,
      ]),
    ),
  },
  dark: {
    ...DEEP_FILLED,
    // Between dark 0 (the text) and dark 1: 7.5:1 on a card (dark 1 is 6.8:1 there).
    '--mantine-color-dimmed':
      'color-mix(in srgb, var(--mantine-color-dark-0) 60%, var(--mantine-color-dark-1))',
    // Links on the dark body and cards: indigo 2 is 8.3:1 on a card (indigo 3 is 5.9:1).
    '--mantine-color-anchor': 'var(--mantine-color-indigo-2)',
    // Red 3: 7.4:1 on a card (Mantine's red 8 is 3.4:1 on the body).
    '--mantine-color-error': 'var(--mantine-color-red-3)',
  },
});
