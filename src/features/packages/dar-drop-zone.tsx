import { FileDropZone } from '@/components/file-drop-zone';

export type DarDropZoneProps = {
  onFile: (file: File) => void;
  fileName: string | undefined;
  /** While an upload runs, no other file can be chosen. */
  isDisabled?: boolean;
};

/** Where a DAR is dropped or picked. */
export function DarDropZone(props: DarDropZoneProps) {
  return <FileDropZone {...props} what="a DAR file" pickLabel="Choose a DAR file" accept=".dar" />;
}
