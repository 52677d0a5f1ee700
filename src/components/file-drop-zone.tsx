import { Text } from '@mantine/core';
import { useId, useState, type DragEvent } from 'react';
import { IsolatedText } from './isolated-text';
import classes from './file-drop-zone.module.css';

export type FileDropZoneProps = {
  onFile: (file: File) => void;
  /** The chosen file's name, announced next to the picker. */
  fileName: string | undefined;
  /** While the file is being used (an upload, a run), no other can be chosen. */
  isDisabled?: boolean;
  /** What to drop, e.g. "a DAR file": the zone says "Drop a DAR file here". */
  what: string;
  /** The picker's visible label, which names the file input. */
  pickLabel: string;
  /** The input's `accept`. */
  accept: string;
};

/**
 * Where a file is dropped or picked. A native file input (visually hidden, still focusable and
 * named by its visible label), so keyboard and assistive technology get the browser's own picker;
 * dropping is a shortcut for pointer users, not the only way.
 */
export function FileDropZone({
  onFile,
  fileName,
  isDisabled = false,
  what,
  pickLabel,
  accept,
}: FileDropZoneProps) {
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
      <Text fw={500}>Drop {what} here</Text>
      <Text size="sm" c="dimmed">
        or
      </Text>
      <input
        id={inputId}
        type="file"
        accept={accept}
        className={classes.input}
        disabled={isDisabled}
        onChange={(event) => {
          const file = event.currentTarget.files?.[0];
          if (file) onFile(file);
          // Choosing the same file again (a retry, a re-run) must still count as a choice.
          event.currentTarget.value = '';
        }}
      />
      <label htmlFor={inputId} className={classes.pick}>
        {pickLabel}
      </label>
      <Text size="sm" c="dimmed" aria-live="polite">
        {fileName === undefined ? (
          'No file chosen'
        ) : (
          <>
            Chosen: <IsolatedText isIdentifier>{fileName}</IsolatedText>
          </>
        )}
      </Text>
    </div>
  );
}
