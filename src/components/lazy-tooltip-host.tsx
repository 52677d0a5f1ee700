// The one module that imports Mantine's Tooltip: DeferredTooltip loads it when first rendered.
export { Tooltip as default } from '@mantine/core';
