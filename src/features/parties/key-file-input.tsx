import { Input, Text } from '@mantine/core';
import { useId } from 'react';

/**
 * A private key file picker with a field message. The file is handed to `onFile` only: reading it
 * and keeping (or dropping) the key is the caller's, never a form value, storage or the network.
 */
export function KeyFileInput({
  error,
  status,
  onFile,
}: {
  error: string | undefined;
  /** What was done with the last file read, e.g. "Signed with a.pem". */
  status: string | undefined;
  onFile: (file: File | undefined) => void;
}) {
  const id = useId();
  return (
    <Input.Wrapper
      label="Private key file"
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
