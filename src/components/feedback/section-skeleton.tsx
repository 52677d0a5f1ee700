import { Skeleton, Stack, VisuallyHidden } from '@mantine/core';

export type SectionSkeletonProps = {
  /** Number of placeholder lines; match the content so the layout does not jump. */
  lines?: number;
};

export function SectionSkeleton({ lines = 3 }: SectionSkeletonProps) {
  return (
    <Stack gap="sm" role="status" aria-live="polite">
      <VisuallyHidden>Loading…</VisuallyHidden>
      {Array.from({ length: lines }, (_, index) => (
        <Skeleton key={index} height={14} width={index % 2 === 0 ? '70%' : '45%'} />
      ))}
    </Stack>
  );
}
