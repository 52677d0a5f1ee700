import { Input, Text } from '@mantine/core';
import { useId } from 'react';

export type KeyFileInputProps = {
  label?: string;
  error: string | undefined;
  /** What was done with the last file read, e.g. "Signed with a.pem; the key is not kept." */
  status: string | undefined;
  onFile: (file: File | undefined) => void;
};

/**
 * A private key file chooser: the file is handed to `onFile` to be read in memory; the input
 * never uploads it anywhere.
 */
export function KeyFileInput({
  label = 'Private key file',
  error,
  status,
  onFile,
}: KeyFileInputProps) {
  const id = useId();
  return (
    <Input.Wrapper
      label={label}
      labelProps={{ htmlFor: id }}
      descriptionProps={{ id: `${id}-description` }}
      errorProps={{ id: `${id}-error` }}
      description="PKCS#8 PEM or DER, or a raw Ed25519 seed. Read in this browser only: never stored, never sent."
      error={error}
      required
    >
      <input
        id={id}
        type="file"
        accept=".pem,.der,.key,.txt,.json"
        aria-invalid={error === undefined ? undefined : true}
        aria-describedby={
          error === undefined ? `${id}-description` : `${id}-description ${id}-error`
        }
        onChange={(event) => {
          onFile(event.currentTarget.files?.[0]);
          // Choosing the same file again must read it again.
          event.currentTarget.value = '';
        }}
      />
      {status !== undefined && (
        <Text size="sm" role="status" mt={4}>
          {status}
        </Text>
      )}
    </Input.Wrapper>
  );
}
