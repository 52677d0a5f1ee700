import { zodResolver } from '@hookform/resolvers/zod';
import { Radio, Stack, Text } from '@mantine/core';
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useForm, useWatch, type UseFormReturn } from 'react-hook-form';
import {
  externalPartyMutations,
  type GenerateExternalPartyTopologyRequest,
  type ReadGeneratedTopology,
} from '@/api/external-parties';
import { participantQueries } from '@/api/participant';
import { sessionQueries } from '@/api/session';
import { synchronizerQueries, type ConnectedSynchronizer } from '@/api/synchronizers';
import { CopyAsMenu } from '@/components/copy-as-menu';
import { ErrorAlert } from '@/components/feedback/error-alert';
import { ForbiddenState } from '@/components/feedback/page-state';
import { FIELD_WIDTH } from '@/components/form/field-widths';
import { FormActions } from '@/components/form/form-actions';
import { FormRootError } from '@/components/form/form-root-error';
import { FormSelect } from '@/components/form/form-select';
import { FormTextInput } from '@/components/form/form-text-input';
import { FormTextarea } from '@/components/form/form-textarea';
import { useFormMutation } from '@/components/form/use-form-mutation';
import { accessOf } from '@/lib/access-rights';
import { keyFileName, type BrowserKey } from '@/lib/external-party-signing';
import { forbiddenDetails } from '@/lib/forbidden';
import { shortenIdentifier } from '@/lib/format';
import { generateKeyPair, parsePublicKey, type PublicSigningKey } from '@/lib/signing/keys';
import { SigningInputError } from '@/lib/signing/signing-input-error';
import {
  emptyExternalPartyValues,
  externalPartySchema,
  generateTopologyErrorField,
  MAX_OTHER_PARTICIPANTS,
  toGenerateTopologyRequest,
  type ExternalPartyValues,
} from './external-party-form-schema';
import { generateTopologyCommands } from './parties-copy-as';
import { SignTopologyStep } from './sign-topology-step';

export type AllocateExternalPartyFormLinks = {
  /** Where Cancel goes: the parties list. */
  parties: string;
};

export type AllocateExternalPartyFormProps = {
  onAllocated: (partyId: string, identityProviderId: string) => void;
  links: AllocateExternalPartyFormLinks;
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
export function AllocateExternalPartyForm({ onAllocated, links }: AllocateExternalPartyFormProps) {
  const { data: caller } = useSuspenseQuery(sessionQueries.caller());
  const access = accessOf(caller);
  const identityProviderId = access.administeredIdentityProviderId ?? '';
  const synchronizers = useQuery(synchronizerQueries.connected());
  const { data: ownParticipantId } = useQuery(participantQueries.participantId());
  const form = useForm<ExternalPartyValues>({
    resolver: zodResolver(
      externalPartySchema(ownParticipantId === undefined ? {} : { ownParticipantId }),
    ),
    defaultValues: emptyExternalPartyValues(),
  });
  const [browserKey, setBrowserKey] = useState<BrowserKey | undefined>(undefined);
  const [generated, setGenerated] = useState<Generated | undefined>(undefined);
  const generate = useFormMutation(
    form,
    externalPartyMutations.generateTopology(),
    {},
    generateTopologyErrorField,
  );
  const [isMakingKey, setIsMakingKey] = useState(false);

  // One synchronizer: chosen already. Several: the user picks.
  const connected = synchronizers.data;
  useEffect(() => {
    const [only, ...others] = connected ?? [];
    if (only !== undefined && others.length === 0 && form.getValues('synchronizerId') === '') {
      form.setValue('synchronizerId', only.synchronizerId);
    }
  }, [connected, form]);

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
        {...(ownParticipantId === undefined ? {} : { ownParticipantId })}
        onBack={() => {
          setGenerated(undefined);
        }}
        onAllocated={(partyId) => {
          // Nothing of the key stays once the party exists.
          setBrowserKey(undefined);
          onAllocated(partyId, identityProviderId);
        }}
      />
    );
  }

  const handleSubmit = form.handleSubmit(async (values) => {
    let publicKey: PublicSigningKey;
    if (values.keySource === 'public') {
      try {
        publicKey = await parsePublicKey(values.publicKey);
      } catch (error) {
        if (!(error instanceof SigningInputError)) throw error;
        form.setError(
          'publicKey',
          { type: 'parse', message: error.message },
          { shouldFocus: true },
        );
        return;
      }
    } else {
      // The same key across Back and Generate again, so a downloaded file stays the party's.
      let key = browserKey;
      if (key === undefined) {
        setIsMakingKey(true);
        try {
          const made = await generateKeyPair();
          key = { ...made, fileName: keyFileName(values.partyHint) };
        } finally {
          setIsMakingKey(false);
        }
        setBrowserKey(key);
      }
      publicKey = key.key.publicKey;
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
        <FormSelect
          control={form.control}
          name="synchronizerId"
          label="Synchronizer"
          description="Where the party is hosted."
          data={(connected ?? []).map(toSynchronizerOption)}
          required
          allowDeselect={false}
          disabled={connected === undefined}
          maw={FIELD_WIDTH.long}
        />
        {synchronizers.error && (
          <ErrorAlert
            error={synchronizers.error}
            onRetry={() => {
              void synchronizers.refetch();
            }}
          />
        )}
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
        <KeySourceFields form={form} browserKey={browserKey} />
        <FormActions
          submitLabel="Generate topology"
          isSubmitting={generate.isPending || isMakingKey || form.formState.isSubmitting}
          cancel={{ to: links.parties }}
          extra={<GenerateCopyAs form={form} ownParticipantId={ownParticipantId} />}
        />
      </Stack>
    </form>
  );
}

function KeySourceFields({
  form,
  browserKey,
}: {
  form: UseFormReturn<ExternalPartyValues>;
  browserKey: BrowserKey | undefined;
}) {
  const keySource = useWatch({ control: form.control, name: 'keySource' });
  return (
    <Stack gap="sm">
      <Radio.Group
        label="The party's key"
        value={keySource}
        onChange={(value) => {
          form.setValue('keySource', value === 'public' ? 'public' : 'generate');
          form.clearErrors('publicKey');
        }}
      >
        <Stack gap={6} mt={6}>
          <Radio value="generate" label="Generate a key in this browser" />
          <Radio value="public" label="Use my public key" />
        </Stack>
      </Radio.Group>
      {keySource === 'generate' ? (
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
}: {
  form: UseFormReturn<ExternalPartyValues>;
  ownParticipantId: string | undefined;
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
        if (values.keySource !== 'public' || parsed?.text !== values.publicKey) return undefined;
        const result = externalPartySchema(
          ownParticipantId === undefined ? {} : { ownParticipantId },
        ).safeParse(values);
        return result.success ? generateTopologyCommands(result.data, parsed.key) : undefined;
      }}
      unavailableReason={
        keySource === 'public'
          ? "Fix the form's problems first: the copy is the request Generate topology would send."
          : 'A key made in this browser exists only once the topology is generated; to copy the request before, use your public key.'
      }
    />
  );
}

function toSynchronizerOption(synchronizer: ConnectedSynchronizer) {
  return {
    value: synchronizer.synchronizerId,
    label: `${synchronizer.synchronizerAlias} (${shortenIdentifier(synchronizer.synchronizerId)})`,
  };
}
