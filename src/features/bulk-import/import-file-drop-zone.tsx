import { Text } from '@mantine/core';
import { useId, useState, type DragEvent } from 'react';
import classes from './import-file-drop-zone.module.css';

export type ImportFileDropZoneProps = {
  onFile: (file: File) => void;
  fileName: string | undefined;
  /** While a check or run goes on, no other file can be chosen. */
  isDisabled?: boolean;
};

/**
 * Where an import file is dropped or picked: a native file input (visually hidden, focusable,
 * named by its visible label), so keyboard users get the browser's picker; dropping is a shortcut.
 */
export function ImportFileDropZone({
  onFile,
  fileName,
  isDisabled = false,
}: ImportFileDropZoneProps) {
  const inputId = useId();
  const [isDragging, setIsDragging] = useState(false);

  const handleDrag = (event: DragEvent<HTMLDivElement>, dragging: boolean) => {
    event.preventDefault();
    setIsDragging(dragging && !isDisabled);
  };

  return (
    <div
      className={classes.zone}
      data-dragging={isDragging || undefined}
      data-disabled={isDisabled || undefined}
      onDragEnter={(event) => {
        handleDrag(event, true);
      }}
      onDragOver={(event) => {
        handleDrag(event, true);
      }}
      onDragLeave={(event) => {
        handleDrag(event, false);
      }}
      onDrop={(event) => {
        handleDrag(event, false);
        const [file] = event.dataTransfer.files;
        if (file && !isDisabled) onFile(file);
      }}
    >
      <Text fw={500}>Drop a CSV or JSON file here</Text>
      <Text size="sm" c="dimmed">
        or
      </Text>
      <input
        id={inputId}
        type="file"
        accept=".csv,.json,text/csv,application/json"
        className={classes.input}
        disabled={isDisabled}
        onChange={(event) => {
          const file = event.currentTarget.files?.[0];
          if (file) onFile(file);
          // Choosing the same file again (a re-run) must still count as a choice.
          event.currentTarget.value = '';
        }}
      />
      <label htmlFor={inputId} className={classes.pick}>
        Choose an import file
      </label>
      <Text size="sm" c="dimmed" aria-live="polite">
        {fileName === undefined ? 'No file chosen' : `Chosen: ${fileName}`}
      </Text>
    </div>
  );
}
