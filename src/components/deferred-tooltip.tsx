import { lazy } from 'react';

/**
 * Mantine's Tooltip, its code loaded when first rendered: it brings floating-ui (about 20 KB gzip),
 * which the first route (the header's health badge has a tooltip) need not load before anyone
 * points at it (useLazyTooltip renders it on the first hover or focus).
 */
export const DeferredTooltip = lazy(() => import('./lazy-tooltip-host'));
