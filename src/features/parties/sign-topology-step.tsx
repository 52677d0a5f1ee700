import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Radio, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { externalPartyMutations, type ReadGeneratedTopology } from '@/api/external-parties';
import { CopyAsMenu } from '@/components/copy-as-menu';
import { notify } from '@/components/feedback/notify';
import { FormActions } from '@/components/form/form-actions';
import { FormRootError } from '@/components/form/form-root-error';
import { FormTextarea } from '@/components/form/form-textarea';
import { KeyFileInput } from '@/components/form/key-file-input';
import { useFormMutation } from '@/components/form/use-form-mutation';
import { PrivateKeyDownload } from '@/components/private-key-download';
import { SectionCard } from '@/components/section-card';
import { TopologyViewPanel } from '@/components/topology-view';
import type { ApiError } from '@/lib/errors/api-error';
import {
  checkPastedSignature,
  signWithKeyFile,
  type BrowserKey,
} from '@/lib/signing/external-party-signing';
import type { PublicSigningKey } from '@/lib/signing/keys';
import { parseSignature, signHash, type WireSignature } from '@/lib/signing/signatures';
import {
  signTopologySchema,
  toAllocateExternalPartyRequest,
  type FileKey,
  type SignMethod,
  type SignTopologyValues,
} from './external-party-form-schema';
import { allocateExternalPartyCommands } from './parties-copy-as';

export type SignTopologyStepProps = {
  topology: ReadGeneratedTopology;
  /** The key the topology was generated for: what a signature must verify against. */
  publicKey: PublicSigningKey;
  synchronizerId: string;
  identityProviderId: string;
  browserKey?: BrowserKey;
  /** The key file read in step 1: it signs without being asked for again. */
  fileKey?: FileKey;
  ownParticipantId?: string;
  onBack: () => void;
  onAllocated: (partyId: string) => void;
};

/** A signature made from a key file, with the file's name; the key itself is dropped at once. */
type FileSignature = { fileName: string; signature: WireSignature };

/**
 * Step 2 of "Allocate external party": the generated topology as decoded in the browser, its
 * multi-hash to copy, and the signature — by the key made in this browser, a key file (read in
 * memory, used once, dropped), or pasted — then the allocation.
 */
export function SignTopologyStep({
  topology,
  publicKey,
  synchronizerId,
  identityProviderId,
  browserKey,
  fileKey,
  ownParticipantId,
  onBack,
  onAllocated,
}: SignTopologyStepProps) {
  const { generated, view } = topology;
  const form = useForm<SignTopologyValues>({
    resolver: zodResolver(signTopologySchema),
    defaultValues: {
      method: browserKey !== undefined ? 'browser' : fileKey !== undefined ? 'step1File' : 'file',
      signature: '',
    },
  });
  const method = useWatch({ control: form.control, name: 'method' });
  const [fileSignature, setFileSignature] = useState<FileSignature | undefined>(undefined);
  const [keyFileError, setKeyFileError] = useState<string | undefined>(undefined);
  const [hasDownloaded, setHasDownloaded] = useState(false);
  const [isSigning, setIsSigning] = useState(false);
  const allocate = useFormMutation(form, externalPartyMutations.allocate(), {}, (error) =>
    allocateErrorField(error, form.getValues('method')),
  );
  const hash = view.multiHash.bytes;

  const handleKeyFile = async (file: File | undefined) => {
    setFileSignature(undefined);
    setKeyFileError(undefined);
    if (file === undefined) return;
    // The key lives only inside signWithKeyFile: read, checked, used once.
    const outcome = await signWithKeyFile(
      { size: file.size, bytes: async () => new Uint8Array(await file.arrayBuffer()) },
      { publicKey: { ...publicKey, fingerprint: generated.publicKeyFingerprint }, hash },
    );
    if (outcome.ok) setFileSignature({ fileName: file.name, signature: outcome.signature });
    else setKeyFileError(outcome.message);
  };

  /** The signature the chosen method gives, or undefined after putting a message on its field. */
  const signatureFor = async (values: SignTopologyValues): Promise<WireSignature | undefined> => {
    if (values.method === 'browser') {
      if (browserKey === undefined) return undefined;
      return signHash(browserKey.key, hash);
    }
    if (values.method === 'step1File') {
      if (fileKey === undefined) return undefined;
      return signHash(fileKey.key, hash);
    }
    if (values.method === 'file') {
      if (fileSignature === undefined) {
        setKeyFileError((current) => current ?? "Choose the party's private key file.");
      }
      return fileSignature?.signature;
    }
    const outcome = await checkPastedSignature(values.signature, {
      publicKey: { ...publicKey, fingerprint: generated.publicKeyFingerprint },
      hash,
    });
    if (!outcome.ok) {
      form.setError(
        'signature',
        { type: 'parse', message: outcome.message },
        { shouldFocus: true },
      );
      return undefined;
    }
    return outcome.signature;
  };

  const handleSubmit = form.handleSubmit(async (values) => {
    setIsSigning(true);
    let signature: WireSignature | undefined;
    try {
      signature = await signatureFor(values);
    } finally {
      setIsSigning(false);
    }
    if (signature === undefined) return;
    allocate.mutate(
      toAllocateExternalPartyRequest(generated, {
        synchronizerId,
        signature,
        identityProviderId,
      }),
      {
        onSuccess: ({ partyId }) => {
          notify.success(`External party ${partyId} allocated`);
          onAllocated(partyId);
        },
      },
    );
  });

  const mustDownload = method === 'browser' && browserKey !== undefined && !hasDownloaded;

  return (
    <Stack gap="lg">
      <SectionCard title="What the party's key signs">
        <TopologyViewPanel
          view={view}
          partyId={generated.partyId}
          fingerprint={generated.publicKeyFingerprint}
          {...(ownParticipantId === undefined ? {} : { ownParticipantId })}
        />
      </SectionCard>
      {browserKey !== undefined && (
        <SectionCard title="The party's private key">
          <PrivateKeyDownload
            fileName={browserKey.fileName}
            privateKeyPem={browserKey.privateKeyPem}
            hasDownloaded={hasDownloaded}
            onDownloaded={() => {
              setHasDownloaded(true);
            }}
          />
        </SectionCard>
      )}
      <form
        onSubmit={(event) => void handleSubmit(event)}
        noValidate
        aria-label="Sign and allocate external party"
      >
        <Stack gap="lg">
          <FormRootError control={form.control} error={allocate.error} />
          {!view.isMultiHashMatching && (
            <Alert color="red" title="The multi-hash does not match">
              The participant&apos;s multi-hash is not the hash of the transactions shown. Go back
              and generate the topology again.
            </Alert>
          )}
          <Radio.Group
            label="Sign the multi-hash with"
            value={method}
            onChange={(value) => {
              form.setValue(
                'method',
                value === 'file' || value === 'signature' || value === 'step1File'
                  ? value
                  : 'browser',
              );
              form.clearErrors();
            }}
          >
            <Stack gap={6} mt={6}>
              {browserKey !== undefined && (
                <Radio value="browser" label="The key made in this browser" />
              )}
              {fileKey !== undefined && (
                <Radio
                  value="step1File"
                  label="The key file chosen in step 1"
                  description={fileKey.fileName}
                />
              )}
              <Radio value="file" label="A private key file" />
              <Radio value="signature" label="A signature made elsewhere" />
            </Stack>
          </Radio.Group>
          {method === 'file' && (
            <KeyFileInput
              error={keyFileError}
              status={
                fileSignature === undefined
                  ? undefined
                  : `Signed with ${fileSignature.fileName}; the key is not kept.`
              }
              onFile={(file) => void handleKeyFile(file)}
            />
          )}
          {method === 'signature' && (
            <FormTextarea
              control={form.control}
              name="signature"
              label="Signature"
              description="The party key's Ed25519 signature of the multi-hash bytes (above), as hex or base64."
              autosize
              minRows={2}
              spellCheck={false}
              required
            />
          )}
          {mustDownload && (
            <Text size="sm" c="dimmed">
              Download the private key first: without it, nobody can act as the party.
            </Text>
          )}
          <FormActions
            submitLabel="Sign and allocate"
            isSubmitting={allocate.isPending || isSigning}
            isSubmitDisabled={!view.isMultiHashMatching || mustDownload}
            cancel={{ onClick: onBack, label: 'Back' }}
            extra={
              <CopyAsMenu
                commands={() => {
                  const signature =
                    method === 'file'
                      ? fileSignature?.signature
                      : method === 'signature'
                        ? pastedSignature(
                            form.getValues('signature'),
                            generated.publicKeyFingerprint,
                            publicKey,
                          )
                        : undefined;
                  return signature === undefined
                    ? undefined
                    : allocateExternalPartyCommands(
                        toAllocateExternalPartyRequest(generated, {
                          synchronizerId,
                          signature,
                          identityProviderId,
                        }),
                      );
                }}
                unavailableReason="The request carries the signature: choose the key file or paste the signature first (a key made in this browser or chosen in step 1 signs only when you allocate)."
              />
            }
          />
        </Stack>
      </form>
    </Stack>
  );
}

function pastedSignature(
  text: string,
  signedBy: string,
  publicKey: PublicSigningKey,
): WireSignature | undefined {
  try {
    return parseSignature(text, { signedBy, keySpec: publicKey.keySpec });
  } catch {
    return undefined;
  }
}

/** The sign step's field a refusal concerns: a pasted signature that does not verify. */
function allocateErrorField(error: ApiError, method: SignMethod): 'signature' | undefined {
  if (method === 'signature' && /signature/i.test(error.body.cause)) return 'signature';
  return undefined;
}
