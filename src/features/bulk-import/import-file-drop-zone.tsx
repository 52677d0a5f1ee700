import { FileDropZone } from '@/components/file-drop-zone';

export type ImportFileDropZoneProps = {
  onFile: (file: File) => void;
  fileName: string | undefined;
  /** While a check or run goes on, no other file can be chosen. */
  isDisabled?: boolean;
};

/** Where an import file is dropped or picked. */
export function ImportFileDropZone(props: ImportFileDropZoneProps) {
  return (
    <FileDropZone
      {...props}
      what="a CSV or JSON file"
      pickLabel="Choose an import file"
      accept=".csv,.json,text/csv,application/json"
    />
  );
}
