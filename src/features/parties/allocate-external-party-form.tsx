import { zodResolver } from '@hookform/resolvers/zod';
import { SynchronizerSelect } from '@/pickers/synchronizer-select';
import { readPublicKeyField, useBrowserKey } from '@/components/form/external-party-key';
import { Radio, Stack, Text } from '@mantine/core';
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { useForm, useWatch, type UseFormReturn } from 'react-hook-form';
import {
  externalPartyMutations,
  type GenerateExternalPartyTopologyRequest,
  type ReadGeneratedTopology,
} from '@/api/external-parties';
import { participantQueries } from '@/api/participant';
import { sessionQueries } from '@/api/session';
import { CopyAsMenu } from '@/components/copy-as-menu';
import { ForbiddenState } from '@/components/feedback/page-state';
import { FIELD_WIDTH } from '@/components/form/field-widths';
import { FormActions } from '@/components/form/form-actions';
import { FormRootError } from '@/components/form/form-root-error';
import { FormTextInput } from '@/components/form/form-text-input';
import { FormTextarea } from '@/components/form/form-textarea';
import { KeyFileInput } from '@/components/form/key-file-input';
import { useFormMutation } from '@/components/form/use-form-mutation';
import { accessOf } from '@/lib/access/access-rights';
import type { BrowserKey } from '@/lib/signing/external-party-signing';
import { forbiddenDetails } from '@/lib/errors/forbidden';
import { shortenIdentifier } from '@/lib/text/format';
import { parsePublicKey, type PublicSigningKey } from '@/lib/signing/keys';
import { isSigningInputError } from '@/lib/signing/signing-input-error';
import {
  emptyExternalPartyValues,
  externalPartySchema,
  generateTopologyErrorField,
  MAX_OTHER_PARTICIPANTS,
  requiredPartyOf,
  toGenerateTopologyRequest,
  type ExternalPartyPrefill,
  type ExternalPartyValues,
  type FileKey,
  type KeySource,
} from './external-party-form-schema';
import { readKeyFile } from './read-key-file';
import { generateTopologyCommands } from './parties-copy-as';
import { SignTopologyStep } from './sign-topology-step';

export type AllocateExternalPartyFormLinks = {
  /** Where Cancel goes: the parties list. */
  parties: string;
};

export type AllocateExternalPartyFormProps = {
  onAllocated: (partyId: string, identityProviderId: string) => void;
  links: AllocateExternalPartyFormLinks;
  /** An existing external party to host on another synchronizer (the party page's link). */
  prefill?: ExternalPartyPrefill;
};

/** Step 2's input: what step 1 generated, for which key. */
type Generated = {
  topology: ReadGeneratedTopology;
  request: GenerateExternalPartyTopologyRequest;
  publicKey: PublicSigningKey;
};

/**
 * Allocates an external party (issue 23 item 3): step 1 asks for the hint, synchronizer, other
 * confirming participants, threshold and key, and generates the topology
 * (`generate-topology`); step 2 shows it decoded in the browser, gets its multi-hash signed and
 * allocates (`allocate`). The party's private key never leaves the browser.
 */
export function AllocateExternalPartyForm({
  onAllocated,
  links,
  prefill,
}: AllocateExternalPartyFormProps) {
  const { data: caller } = useSuspenseQuery(sessionQueries.caller());
  const access = accessOf(caller);
  const identityProviderId = access.administeredIdentityProviderId ?? '';
  const { data: ownParticipantId } = useQuery(participantQueries.participantId());
  const form = useForm<ExternalPartyValues>({
    resolver: zodResolver(
      externalPartySchema(ownParticipantId === undefined ? {} : { ownParticipantId }),
    ),
    defaultValues: emptyExternalPartyValues('', prefill),
  });
  const { browserKey, setBrowserKey, isMakingKey, ensureBrowserKey } = useBrowserKey();
  // The user's key file, read in memory: held here only until the allocation ends.
  const [fileKey, setFileKey] = useState<FileKey | undefined>(undefined);
  const [keyFileError, setKeyFileError] = useState<string | undefined>(undefined);
  const [generated, setGenerated] = useState<Generated | undefined>(undefined);
  const generate = useFormMutation(form, externalPartyMutations.generateTopology(), {}, (error) => {
    const field = generateTopologyErrorField(error);
    // With a key file there is no public key field: the refusal shows above the form.
    return field === 'publicKey' && form.getValues('keySource') === 'file' ? undefined : field;
  });

  if (!access.canManageUsers) {
    return (
      <ForbiddenState
        title="You may not allocate parties"
        {...forbiddenDetails(caller, ['ParticipantAdmin', 'IdentityProviderAdmin'])}
      />
    );
  }

  if (generated !== undefined) {
    return (
      <SignTopologyStep
        topology={generated.topology}
        publicKey={generated.publicKey}
        synchronizerId={generated.request.synchronizer}
        identityProviderId={identityProviderId}
        {...(browserKey === undefined ? {} : { browserKey })}
        {...(fileKey === undefined ? {} : { fileKey })}
        {...(ownParticipantId === undefined ? {} : { ownParticipantId })}
        onBack={() => {
          setGenerated(undefined);
        }}
        onAllocated={(partyId) => {
          // Nothing of the key stays once the party exists.
          setBrowserKey(undefined);
          setFileKey(undefined);
          onAllocated(partyId, identityProviderId);
        }}
      />
    );
  }

  /** Why `key` may not be used with the hint typed, or undefined when it may. */
  const keyProblem = (key: FileKey, hint: string): string | undefined => {
    const required = requiredPartyOf(prefill, hint);
    return required === undefined || key.key.publicKey.fingerprint === required.fingerprint
      ? undefined
      : `This key is not ${required.party}'s key`;
  };

  const handleKeyFile = async (file: File | undefined) => {
    setFileKey(undefined);
    setKeyFileError(undefined);
    if (file === undefined) return;
    let key: FileKey;
    try {
      key = { key: await readKeyFile(file), fileName: file.name };
    } catch (error) {
      if (!isSigningInputError(error)) throw error;
      setKeyFileError(error.message);
      return;
    }
    const problem = keyProblem(key, form.getValues('partyHint'));
    if (problem === undefined) setFileKey(key);
    else setKeyFileError(problem);
  };

  const handleSubmit = form.handleSubmit(async (values) => {
    let publicKey: PublicSigningKey;
    if (values.keySource === 'file') {
      const problem =
        fileKey === undefined
          ? (keyFileError ?? "Choose the party's private key file.")
          : keyProblem(fileKey, values.partyHint);
      if (problem !== undefined || fileKey === undefined) {
        setKeyFileError(problem);
        return;
      }
      publicKey = fileKey.key.publicKey;
    } else if (values.keySource === 'public') {
      const parsed = await readPublicKeyField(form, 'publicKey', values.publicKey);
      if (parsed === undefined) return;
      publicKey = parsed;
    } else {
      publicKey = (await ensureBrowserKey(values.partyHint)).key.key.publicKey;
    }
    const request = toGenerateTopologyRequest(values, publicKey);
    generate.mutate(request, {
      onSuccess: (topology) => {
        setGenerated({ topology, request, publicKey });
      },
    });
  });

  return (
    <form
      onSubmit={(event) => void handleSubmit(event)}
      noValidate
      aria-label="Allocate external party"
    >
      <Stack gap="lg">
        <FormRootError control={form.control} error={generate.error} />
        <FormTextInput
          control={form.control}
          name="partyHint"
          label="Party id hint"
          description={`The party id is this hint, "::" and the fingerprint of the party's key. ASCII letters, digits, ":", "-", "_" and space; no "::".`}
          autoComplete="off"
          spellCheck={false}
          required
          maw={FIELD_WIDTH.medium}
        />
        <SynchronizerSelect
          form={form}
          name="synchronizerId"
          description="Where the party is hosted."
        />
        <FormTextarea
          control={form.control}
          name="otherConfirmingParticipants"
          label="Other confirming participants"
          description={`Optional: participant ids (name::namespace), one per line, at most ${String(MAX_OTHER_PARTICIPANTS)}. They must approve the hosting on their side.`}
          autosize
          minRows={2}
          spellCheck={false}
          maw={FIELD_WIDTH.long}
        />
        <FormTextInput
          control={form.control}
          name="confirmationThreshold"
          label="Confirmation threshold"
          description="Optional: how many confirming participants must confirm. Empty: all of them."
          inputMode="numeric"
          autoComplete="off"
          maw={FIELD_WIDTH.short}
        />
        <KeySourceFields
          form={form}
          browserKey={browserKey}
          keyFile={
            <KeyFileInput
              error={keyFileError}
              status={
                fileKey === undefined
                  ? undefined
                  : `Read ${fileKey.fileName}: fingerprint ${shortenIdentifier(fileKey.key.publicKey.fingerprint)}. Kept in this page only, until the party is allocated.`
              }
              onFile={(file) => void handleKeyFile(file)}
            />
          }
          onKeySourceChange={(source) => {
            // A key is held only while its choice is.
            if (source !== 'file') {
              setFileKey(undefined);
              setKeyFileError(undefined);
            }
          }}
        />
        <FormActions
          submitLabel="Generate topology"
          isSubmitting={generate.isPending || isMakingKey || form.formState.isSubmitting}
          cancel={{ to: links.parties }}
          extra={
            <GenerateCopyAs
              form={form}
              ownParticipantId={ownParticipantId}
              fileKey={fileKey?.key.publicKey}
            />
          }
        />
      </Stack>
    </form>
  );
}

function KeySourceFields({
  form,
  browserKey,
  keyFile,
  onKeySourceChange,
}: {
  form: UseFormReturn<ExternalPartyValues>;
  browserKey: BrowserKey | undefined;
  keyFile: ReactNode;
  onKeySourceChange: (source: KeySource) => void;
}) {
  const keySource = useWatch({ control: form.control, name: 'keySource' });
  return (
    <Stack gap="sm">
      <Radio.Group
        label="The party's key"
        value={keySource}
        onChange={(value) => {
          const source = value === 'public' || value === 'file' ? value : 'generate';
          form.setValue('keySource', source);
          form.clearErrors('publicKey');
          onKeySourceChange(source);
        }}
      >
        <Stack gap={6} mt={6}>
          <Radio value="generate" label="Generate a key in this browser" />
          <Radio value="public" label="Use my public key" />
          <Radio value="file" label="Use my private key file" />
        </Stack>
      </Radio.Group>
      {keySource === 'file' ? (
        keyFile
      ) : keySource === 'generate' ? (
        <Text size="sm" c="dimmed">
          {browserKey === undefined
            ? 'An Ed25519 key is made in this browser when you generate the topology; you then download its private key.'
            : `The key made in this browser is used again (fingerprint ${shortenIdentifier(browserKey.key.publicKey.fingerprint)}).`}
        </Text>
      ) : (
        <FormTextarea
          control={form.control}
          name="publicKey"
          label="Public key"
          description="Ed25519: the 32 raw bytes as base64 or hex, or a PEM PUBLIC KEY block. EC P-256: PEM. Never paste a private key."
          autosize
          minRows={3}
          spellCheck={false}
          required
          maw={FIELD_WIDTH.long}
        />
      )}
    </Stack>
  );
}

/**
 * "Copy as…" for step 1: the generate-topology request, once the pasted public key reads as one
 * (parsing is asynchronous, so it runs as the key is typed). A key made in this browser exists
 * only after Generate topology.
 */
function GenerateCopyAs({
  form,
  ownParticipantId,
  fileKey,
}: {
  form: UseFormReturn<ExternalPartyValues>;
  ownParticipantId: string | undefined;
  /** The public key of the key file read, if any. */
  fileKey: PublicSigningKey | undefined;
}) {
  const [keySource, publicKeyText] = useWatch({
    control: form.control,
    name: ['keySource', 'publicKey'],
  });
  const [parsed, setParsed] = useState<{ text: string; key: PublicSigningKey } | undefined>();
  useEffect(() => {
    if (keySource !== 'public') return;
    let isCurrent = true;
    parsePublicKey(publicKeyText).then(
      (key) => {
        if (isCurrent) setParsed({ text: publicKeyText, key });
      },
      () => {
        if (isCurrent) setParsed(undefined);
      },
    );
    return () => {
      isCurrent = false;
    };
  }, [keySource, publicKeyText]);
  return (
    <CopyAsMenu
      commands={() => {
        const values = form.getValues();
        const key =
          values.keySource === 'file'
            ? fileKey
            : values.keySource === 'public' && parsed?.text === values.publicKey
              ? parsed.key
              : undefined;
        if (key === undefined) return undefined;
        const result = externalPartySchema(
          ownParticipantId === undefined ? {} : { ownParticipantId },
        ).safeParse(values);
        return result.success ? generateTopologyCommands(result.data, key) : undefined;
      }}
      unavailableReason={
        keySource === 'public' || keySource === 'file'
          ? "Fix the form's problems first (and choose the key): the copy is the request Generate topology would send."
          : 'A key made in this browser exists only once the topology is generated; to copy the request before, use your public key.'
      }
    />
  );
}
