import { Alert, Button, Code, Group, Radio, Stack, Text } from '@mantine/core';
import { SynchronizerSelect } from '@/pickers/synchronizer-select';
import { useQuery } from '@tanstack/react-query';
import { useController, useWatch, type UseFormReturn } from 'react-hook-form';
import { participantQueries } from '@/api/participant';
import { ErrorAlert } from '@/components/feedback/error-alert';
import { FIELD_WIDTH } from '@/components/form/field-widths';
import { FormTextInput } from '@/components/form/form-text-input';
import { FormTextarea } from '@/components/form/form-textarea';
import { KeyFileInput } from '@/components/form/key-file-input';
import { PrivateKeyDownload } from '@/components/private-key-download';
import { TopologyViewPanel } from '@/components/topology-view';
import { shortenIdentifier } from '@/lib/text/format';
import type { OnboardingValues } from './onboarding-form-schema';
import { isGeneratedFor, type ExternalParty } from './use-external-party';
import { buttonBusy } from '@/components/form/button-busy';

export type ExternalPartyFieldsProps = {
  form: UseFormReturn<OnboardingValues>;
  external: ExternalParty;
};

/**
 * The person's external party: hint, synchronizer and key (theirs, pasted; or made here and
 * downloaded), then the generated topology as decoded in this browser, its multi-hash to copy,
 * and their signature of it. Nothing is allocated here: the plan's run does that.
 */
export function ExternalPartyFields({ form, external }: ExternalPartyFieldsProps) {
  const { control } = form;
  const { data: ownParticipantId } = useQuery(participantQueries.participantId());
  const values = useWatch({ control });
  const keySource = values.externalKeySource ?? 'public';
  const keySourceField = useController({ control, name: 'externalKeySource' });
  const { generated } = external;
  const isCurrent =
    generated !== undefined &&
    isGeneratedFor(generated, {
      partyHint: values.partyHint ?? '',
      externalSynchronizerId: values.externalSynchronizerId ?? '',
      externalKeySource: keySource,
      externalPublicKey: values.externalPublicKey ?? '',
    });

  return (
    <Stack gap="md">
      <FormTextInput
        control={control}
        name="partyHint"
        label="Party hint"
        description='The party id is this hint, "::" and the fingerprint of the person’s key. Letters, digits, "-", "_" and ":". Parties can never be deleted.'
        required
        autoComplete="off"
        spellCheck={false}
        maw={FIELD_WIDTH.medium}
      />
      <SynchronizerSelect
        form={form}
        name="externalSynchronizerId"
        description="Where the party is hosted."
      />
      <Radio.Group
        label="The person's key"
        value={keySource}
        onChange={(value) => {
          keySourceField.field.onChange(value === 'generate' ? 'generate' : 'public');
          form.clearErrors('externalPublicKey');
        }}
      >
        <Stack gap={6} mt={6}>
          <Radio value="public" label="The person's public key (they keep the private key)" />
          <Radio value="generate" label="Generate a key in this browser" />
        </Stack>
      </Radio.Group>
      {keySource === 'public' ? (
        <FormTextarea
          control={control}
          name="externalPublicKey"
          label="Public key"
          description="Ed25519: the 32 raw bytes as base64 or hex, or a PEM PUBLIC KEY block. EC P-256: PEM. Never a private key."
          autosize
          minRows={3}
          spellCheck={false}
          required
          maw={FIELD_WIDTH.long}
        />
      ) : (
        <Text size="sm" c="dimmed">
          {external.browserKey === undefined
            ? 'An Ed25519 key is made in this browser when you generate the topology; you then download its private key and hand it to the person.'
            : `The key made in this browser is used again (fingerprint ${shortenIdentifier(external.browserKey.key.publicKey.fingerprint)}).`}
        </Text>
      )}
      {external.generateError && <ErrorAlert error={external.generateError} />}
      <Group>
        <Button
          variant="default"
          loading={buttonBusy(external.isGenerating)}
          onClick={() => void external.generateTopology()}
        >
          {generated === undefined ? 'Generate topology' : 'Generate topology again'}
        </Button>
        <Text size="xs" c="dimmed">
          Asks the participant for the party&apos;s topology; nothing is allocated until the plan
          runs.
        </Text>
      </Group>
      {generated !== undefined && !isCurrent && (
        <Alert color="yellow" variant="light">
          The hint, synchronizer or key changed since the topology was generated: generate it again.
        </Alert>
      )}
      {generated !== undefined && isCurrent && (
        <SignFields form={form} external={external} ownParticipantId={ownParticipantId} />
      )}
    </Stack>
  );
}

function SignFields({
  form,
  external,
  ownParticipantId,
}: ExternalPartyFieldsProps & { ownParticipantId: string | undefined }) {
  const { control } = form;
  const method = useController({ control, name: 'externalSignMethod' });
  const { generated, browserKey } = external;
  if (generated === undefined) return null;
  const { topology } = generated;
  return (
    <Stack gap="md" role="region" aria-label="What the person's key signs">
      <TopologyViewPanel
        view={topology.view}
        partyId={topology.generated.partyId}
        fingerprint={topology.generated.publicKeyFingerprint}
        {...(ownParticipantId === undefined ? {} : { ownParticipantId })}
      />
      {!topology.view.isMultiHashMatching && (
        <Alert color="red" title="The multi-hash does not match">
          The participant&apos;s multi-hash is not the hash of the transactions shown. Generate the
          topology again.
        </Alert>
      )}
      {browserKey !== undefined && (
        <PrivateKeyDownload
          fileName={browserKey.fileName}
          privateKeyPem={browserKey.privateKeyPem}
          hasDownloaded={external.hasDownloaded}
          onDownloaded={external.markDownloaded}
          holder="the person"
        />
      )}
      <Text size="sm">
        The person signs the multi-hash bytes (hex <Code>{topology.view.multiHash.hex}</Code>) with
        their key; their signature comes back here.
      </Text>
      <Radio.Group
        label="The person's signature of the multi-hash"
        value={method.field.value}
        onChange={(value) => {
          method.field.onChange(value === 'browser' || value === 'file' ? value : 'signature');
          form.clearErrors(['externalSignMethod', 'externalSignature']);
        }}
        error={method.fieldState.error?.message}
      >
        <Stack gap={6} mt={6}>
          {(browserKey !== undefined || method.field.value === 'browser') && (
            <Radio value="browser" label="Sign with the key made in this browser" />
          )}
          <Radio value="signature" label="A signature the person made (pasted)" />
          <Radio value="file" label="The person's private key file" />
        </Stack>
      </Radio.Group>
      {method.field.value === 'file' && (
        <KeyFileInput
          error={external.keyFileError}
          status={
            external.fileSignature
              ? `Signed with ${external.fileSignature.fileName}; the key is not kept.`
              : undefined
          }
          onFile={(file) => void external.signWithFile(file)}
        />
      )}
      {method.field.value === 'signature' && (
        <FormTextarea
          control={control}
          name="externalSignature"
          label="Signature"
          description="The person key's Ed25519 signature of the multi-hash bytes, as hex or base64. Checked in this browser before anything is sent."
          autosize
          minRows={2}
          spellCheck={false}
          required
          maw={FIELD_WIDTH.long}
        />
      )}
    </Stack>
  );
}
