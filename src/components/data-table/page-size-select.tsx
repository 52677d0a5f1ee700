import { NativeSelect } from '@mantine/core';
import { withPageSize, type PageTrail } from '@/lib/navigation/page-trail';

export type PageSizeSelectProps<T extends PageTrail> = {
  sizes: readonly number[];
  page: T;
  /** Gets the first page of the new size. */
  onPageChange: (page: T) => void;
};

export function PageSizeSelect<T extends PageTrail>({
  sizes,
  page,
  onPageChange,
}: PageSizeSelectProps<T>) {
  return (
    <NativeSelect
      label="Page size"
      data={sizes.map(String)}
      value={String(page.pageSize)}
      onChange={(event) => {
        onPageChange(withPageSize(page, Number(event.currentTarget.value)));
      }}
      w={110}
    />
  );
}
