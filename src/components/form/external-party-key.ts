import { useCallback, useState } from 'react';
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { keyFileName, type BrowserKey } from '@/lib/signing/external-party-signing';
import { generateKeyPair, parsePublicKey, type PublicSigningKey } from '@/lib/signing/keys';
import { isSigningInputError } from '@/lib/signing/signing-input-error';

/**
 * A key pair made in this browser for a new external party (allocation, onboarding). The pair is
 * kept across Back and Generate again, so a private key file already downloaded stays the party's.
 */
export function useBrowserKey() {
  const [browserKey, setBrowserKey] = useState<BrowserKey | undefined>(undefined);
  const [isMakingKey, setIsMakingKey] = useState(false);
  const ensureBrowserKey = useCallback(
    async (partyHint: string): Promise<{ key: BrowserKey; isNew: boolean }> => {
      if (browserKey !== undefined) return { key: browserKey, isNew: false };
      setIsMakingKey(true);
      try {
        const made = await generateKeyPair();
        const key = { ...made, fileName: keyFileName(partyHint) };
        setBrowserKey(key);
        return { key, isNew: true };
      } finally {
        setIsMakingKey(false);
      }
    },
    [browserKey],
  );
  return { browserKey, setBrowserKey, isMakingKey, ensureBrowserKey };
}

/** A pasted public key read for a form field; what cannot be read becomes the field's message. */
export async function readPublicKeyField<T extends FieldValues>(
  form: UseFormReturn<T>,
  field: Path<T>,
  text: string,
): Promise<PublicSigningKey | undefined> {
  try {
    return await parsePublicKey(text);
  } catch (error) {
    if (!isSigningInputError(error)) throw error;
    form.setError(field, { type: 'parse', message: error.message }, { shouldFocus: true });
    return undefined;
  }
}
