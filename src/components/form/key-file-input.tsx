import { Input, Text } from '@mantine/core';
import { useId } from 'react';

export type KeyFileInputProps = {
  label?: string;
  error: string | undefined;
  /** The file the hash was signed with, once it was. */
  signedFile: string | undefined;
  onFile: (file: File | undefined) => void;
};

/**
 * A private key file chooser: the file is handed to `onFile` to be read in memory; the input
 * never uploads it anywhere.
 */
export function KeyFileInput({
  label = 'Private key file',
  error,
  signedFile,
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
      {signedFile !== undefined && (
        <Text size="sm" role="status" mt={4}>
          Signed with {signedFile}; the key is not kept.
        </Text>
      )}
    </Input.Wrapper>
  );
}
