import {
  Alert,
  Button,
  Fieldset,
  Group,
  SegmentedControl,
  Stack,
  Text,
  Textarea,
} from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import {
  interactiveSubmissionMutations,
  type Executed,
  type ExecuteInput,
  type PartySignature,
  type Prepared,
} from '@/api/interactive-submission';
import { CopyAsMenu } from '@/components/copy-as-menu';
import { FileDropZone } from '@/components/file-drop-zone';
import { describeError, isApiError } from '@/lib/errors/api-error';
import { shortenIdentifier } from '@/lib/text/format';
import { fromBase64 } from '@/lib/signing/bytes';
import { MAX_KEY_FILE_BYTES, readPrivateKeyFile, type PrivateSigningKey } from '@/lib/signing/keys';
import { parseSignature, signHash } from '@/lib/signing/signatures';
import { isSigningInputError } from '@/lib/signing/signing-input-error';
import { executeCopyAs } from './composer-copy-as';
import { classifyExecuteFailure, namespaceOf, type ExecuteFailure } from './composer-signing';
import { buttonBusy } from '@/components/form/button-busy';

export type SignAndExecuteProps = {
  prepared: Prepared;
  /** The external Act as parties: each signs the hash. */
  signers: readonly string[];
  onExecuted: (executed: Executed) => void;
  onPreviewAgain: () => void;
};

type Mode = 'key' | 'paste';

/** One signer's part of the form. The key lives here, in memory, until the form goes away. */
type SignerState = {
  mode: Mode;
  file: File | null;
  key: PrivateSigningKey | null;
  pasted: string;
  error: string | undefined;
};

const emptySigner: SignerState = {
  mode: 'key',
  file: null,
  key: null,
  pasted: '',
  error: undefined,
};

/** Placeholder for a signature not made yet in a copied request. */
const SIGNATURE_PLACEHOLDER = '<base64 signature of the prepared transaction hash>';

/**
 * Sign and execute (issue 23 item 2): each external Act as party signs the prepared hash, with a
 * private key file read in memory (never stored or sent) or a signature pasted from elsewhere;
 * then the prepared transaction, exactly as prepared, is executed with the signatures.
 */
export function SignAndExecute({
  prepared,
  signers,
  onExecuted,
  onPreviewAgain,
}: SignAndExecuteProps) {
  const [states, setStates] = useState<Record<string, SignerState>>(() =>
    Object.fromEntries(signers.map((party) => [party, emptySigner])),
  );
  const [failure, setFailure] = useState<ExecuteFailure>();
  const execute = useMutation(interactiveSubmissionMutations.execute());
  const { hash } = prepared.preview;
  const stateOf = (party: string) => states[party] ?? emptySigner;
  const update = (party: string, change: Partial<SignerState>) => {
    setStates((current) => ({
      ...current,
      [party]: { ...(current[party] ?? emptySigner), ...change },
    }));
  };

  const chooseKeyFile = async (party: string, file: File | null) => {
    update(party, { file, key: null, error: undefined });
    if (!file) return;
    if (file.size > MAX_KEY_FILE_BYTES) {
      update(party, { error: 'This file is too large to be a key file.' });
      return;
    }
    const bytes = new Uint8Array(await file.arrayBuffer());
    try {
      const key = await readPrivateKeyFile(bytes);
      const expected = namespaceOf(party);
      if (key.publicKey.fingerprint !== expected) {
        update(party, {
          error: `This key (fingerprint ${shortenIdentifier(key.publicKey.fingerprint)}) is not ${shortenIdentifier(party)}'s, whose key is ${shortenIdentifier(expected)}.`,
        });
        return;
      }
      update(party, { key });
    } catch (error) {
      update(party, {
        error: isSigningInputError(error) ? error.message : 'This file could not be read as a key.',
      });
    } finally {
      // The key's bytes are not needed any more: the CryptoKey cannot be exported again.
      bytes.fill(0);
    }
  };

  /** The signatures as the form holds them now; null with field messages set where one is missing. */
  const collect = async (): Promise<ExecuteInput['signatures'] | null> => {
    const hashBytes = fromBase64(hash.base64);
    let isComplete = hashBytes !== null;
    const signatures: { party: string; signatures: PartySignature[] }[] = [];
    for (const party of signers) {
      const state = stateOf(party);
      if (state.mode === 'key') {
        if (!state.key) {
          isComplete = false;
          if (!state.error) update(party, { error: 'Choose the party’s private key file.' });
          continue;
        }
        if (hashBytes)
          signatures.push({ party, signatures: [await signHash(state.key, hashBytes)] });
        continue;
      }
      try {
        signatures.push({
          party,
          signatures: [parseSignature(state.pasted, { signedBy: namespaceOf(party) })],
        });
      } catch (error) {
        isComplete = false;
        update(party, {
          error: isSigningInputError(error) ? error.message : 'This is not a signature.',
        });
      }
    }
    return isComplete ? signatures : null;
  };

  const handleExecute = async () => {
    setFailure(undefined);
    const signatures = await collect();
    if (!signatures) return;
    execute.mutate(
      {
        request: prepared.request,
        response: prepared.response,
        signatures,
        submissionId: crypto.randomUUID(),
      },
      {
        onSuccess: onExecuted,
        onError: (error) => {
          const classified = isApiError(error)
            ? classifyExecuteFailure(error)
            : { kind: 'other' as const, message: describeError(error).message };
          setFailure(classified);
          if (classified.kind === 'signature') {
            for (const party of signers) update(party, { error: classified.message });
          }
        },
      },
    );
  };

  const copyAs = () =>
    executeCopyAs({
      request: prepared.request,
      response: prepared.response,
      signatures: signers.map((party) => {
        const state = stateOf(party);
        let signature: PartySignature = {
          format: 'SIGNATURE_FORMAT_CONCAT',
          signature: SIGNATURE_PLACEHOLDER,
          signedBy: namespaceOf(party),
          signingAlgorithmSpec: 'SIGNING_ALGORITHM_SPEC_ED25519',
        };
        if (state.mode === 'paste') {
          try {
            signature = parseSignature(state.pasted, { signedBy: namespaceOf(party) });
          } catch {
            // Not a signature yet: the placeholder says what goes there.
          }
        }
        return { party, signatures: [signature] };
      }),
      submissionId: '<a new submission id>',
    });

  return (
    <Stack gap="sm">
      <Text size="sm">
        {signers.length === 1 ? 'This party is external: it' : 'These parties are external: each'}{' '}
        signs the hash above with its own key. The key file is read in this browser only; it is not
        stored or sent anywhere.
      </Text>
      {!hash.isMatching && (
        <Alert color="red" variant="light" title="Do not sign this hash">
          <Text size="sm">
            The hash was not recomputed from the prepared transaction as the participant&apos;s
            {hash.problem ? ` (${hash.problem})` : ''}: signing it could authorize something other
            than what is shown.
          </Text>
        </Alert>
      )}
      {signers.map((party) => (
        <SignerFields
          key={party}
          party={party}
          state={stateOf(party)}
          onMode={(mode) => {
            update(party, { mode, error: undefined });
          }}
          onFile={(file) => void chooseKeyFile(party, file)}
          onPaste={(pasted) => {
            update(party, { pasted, error: undefined });
          }}
        />
      ))}
      {failure && failure.kind !== 'signature' && (
        <Alert
          color="red"
          variant="light"
          title={failure.kind === 'stale' ? 'The preview is stale' : 'Not executed'}
        >
          <Stack gap="xs">
            <Text size="sm">{failure.message}</Text>
            {failure.kind === 'stale' && (
              <Group>
                <Button size="xs" onClick={onPreviewAgain}>
                  Preview again
                </Button>
              </Group>
            )}
          </Stack>
        </Alert>
      )}
      <Group justify="space-between">
        <Button
          onClick={() => void handleExecute()}
          loading={buttonBusy(execute.isPending)}
          disabled={!hash.isMatching}
        >
          Sign and execute
        </Button>
        <CopyAsMenu label="Copy execute as…" commands={copyAs} />
      </Group>
    </Stack>
  );
}

function SignerFields({
  party,
  state,
  onMode,
  onFile,
  onPaste,
}: {
  party: string;
  state: SignerState;
  onMode: (mode: Mode) => void;
  onFile: (file: File) => void;
  onPaste: (text: string) => void;
}) {
  const modeLabelId = useId();
  const name = shortenIdentifier(party);
  return (
    <Fieldset legend={`Signature of ${name}`}>
      <Stack gap="xs">
        <Text size="sm" c="dimmed" id={modeLabelId}>
          How {name} signs
        </Text>
        <SegmentedControl
          aria-labelledby={modeLabelId}
          value={state.mode}
          onChange={(value) => {
            onMode(value === 'paste' ? 'paste' : 'key');
          }}
          data={[
            { value: 'key', label: 'Key file' },
            { value: 'paste', label: 'Paste a signature' },
          ]}
          style={{ alignSelf: 'flex-start' }}
        />
        {state.mode === 'key' ? (
          <Stack gap={4}>
            <FileDropZone
              onFile={onFile}
              fileName={state.file?.name}
              what="the private key file"
              pickLabel={`Private key file of ${name}`}
              accept=".pem,.der,.key,.txt,.json"
            />
            <Text size="xs" c="dimmed">
              PKCS#8 PEM or DER (Ed25519 or P-256), or an Ed25519 seed. Read here only.
            </Text>
            {state.error && (
              <Text size="sm" c="red" role="alert">
                {state.error}
              </Text>
            )}
          </Stack>
        ) : (
          <Textarea
            label={`Signature by ${name} (hex or base64)`}
            description="The party's signature of the hash above, made with its key elsewhere (an HSM, a wallet)."
            value={state.pasted}
            onChange={(event) => {
              onPaste(event.currentTarget.value);
            }}
            error={state.error}
            autosize
            minRows={2}
            spellCheck={false}
            autoComplete="off"
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          />
        )}
        {state.mode === 'key' && state.key && !state.error && (
          <Text size="sm" c="teal">
            Key of {name} read (fingerprint {shortenIdentifier(state.key.publicKey.fingerprint)}).
          </Text>
        )}
      </Stack>
    </Fieldset>
  );
}
