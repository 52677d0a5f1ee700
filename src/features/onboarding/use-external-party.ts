import { useMutation } from '@tanstack/react-query';
import { readPublicKeyField, useBrowserKey } from '@/components/form/external-party-key';
import { useState } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import {
  externalPartyMutations,
  toWirePublicKey,
  type ReadGeneratedTopology,
} from '@/api/external-parties';
import { isApiError } from '@/lib/errors/api-error';
import {
  checkPastedSignature,
  signWithKeyFile,
  topologyRefusalSubject,
  type TopologyRefusalSubject,
} from '@/lib/signing/external-party-signing';
import type { PublicSigningKey } from '@/lib/signing/keys';
import { signHash, type WireSignature } from '@/lib/signing/signatures';
import type { ExternalPartyInput, OnboardingValues } from './onboarding-form-schema';

/** The form values a generated topology was made for: any change makes it stale. */
type GeneratedFor = Pick<
  OnboardingValues,
  'partyHint' | 'externalSynchronizerId' | 'externalKeySource' | 'externalPublicKey'
>;

export type GeneratedTopology = {
  topology: ReadGeneratedTopology;
  publicKey: PublicSigningKey;
  synchronizerId: string;
  madeFor: GeneratedFor;
};

const FIELD_OF_SUBJECT: Partial<Record<TopologyRefusalSubject, keyof OnboardingValues>> = {
  synchronizer: 'externalSynchronizerId',
  partyHint: 'partyHint',
  publicKey: 'externalPublicKey',
};

function fieldOfRefusal(error: Error | null): keyof OnboardingValues | undefined {
  if (!isApiError(error)) return undefined;
  const subject = topologyRefusalSubject(error.body.cause);
  return subject === undefined ? undefined : FIELD_OF_SUBJECT[subject];
}

function generatedFor(values: GeneratedFor): GeneratedFor {
  return {
    partyHint: values.partyHint,
    externalSynchronizerId: values.externalSynchronizerId,
    externalKeySource: values.externalKeySource,
    // A key made in the browser is the same whatever the (hidden) text field holds.
    externalPublicKey: values.externalKeySource === 'public' ? values.externalPublicKey : '',
  };
}

export function isGeneratedFor(generated: GeneratedTopology, values: GeneratedFor): boolean {
  const now = generatedFor(values);
  return (Object.keys(now) as (keyof GeneratedFor)[]).every(
    (field) => generated.madeFor[field] === now[field],
  );
}

/**
 * The external party part of onboarding one person: the topology generated for the person's key
 * (supplied, or made in this browser and offered as a download), and its multi-hash signed.
 * The browser key lives only in this state, and only until {@link forgetKey} (the run's end).
 */
export function useExternalParty(form: UseFormReturn<OnboardingValues>) {
  const { browserKey, setBrowserKey, isMakingKey, ensureBrowserKey } = useBrowserKey();
  const [generated, setGenerated] = useState<GeneratedTopology | undefined>(undefined);
  const [hasDownloaded, setHasDownloaded] = useState(false);
  const [fileSignature, setFileSignature] = useState<
    { fileName: string; signature: WireSignature } | undefined
  >(undefined);
  const [keyFileError, setKeyFileError] = useState<string | undefined>(undefined);
  // The browser key's signature, kept (it is no secret) so a plan made again after the run
  // forgot the key still has it.
  const [browserSignature, setBrowserSignature] = useState<WireSignature | undefined>(undefined);
  const generate = useMutation({
    ...externalPartyMutations.generateTopology(),
    meta: { errorDisplay: 'inline' },
  });

  /** Step 1: checks the party fields, reads or makes the key, and generates the topology. */
  const generateTopology = async () => {
    const isValid = await form.trigger([
      'partyHint',
      'externalSynchronizerId',
      'externalPublicKey',
    ]);
    if (!isValid) return;
    const values = form.getValues();
    let publicKey: PublicSigningKey | undefined;
    if (values.externalKeySource === 'public') {
      publicKey = await readPublicKeyField(form, 'externalPublicKey', values.externalPublicKey);
      if (publicKey === undefined) return;
    } else {
      const { key, isNew } = await ensureBrowserKey(values.partyHint);
      if (isNew) setHasDownloaded(false);
      publicKey = key.key.publicKey;
    }
    const request = {
      synchronizer: values.externalSynchronizerId,
      partyHint: values.partyHint,
      publicKey: toWirePublicKey(publicKey),
    };
    setGenerated(undefined);
    setFileSignature(undefined);
    setKeyFileError(undefined);
    setBrowserSignature(undefined);
    generate.mutate(request, {
      onSuccess: (topology) => {
        setGenerated({
          topology,
          publicKey,
          synchronizerId: request.synchronizer,
          madeFor: generatedFor(values),
        });
        form.setValue(
          'externalSignMethod',
          values.externalKeySource === 'generate' ? 'browser' : 'signature',
        );
        form.clearErrors(['externalSignMethod', 'externalSignature']);
      },
      onError: (error) => {
        const field = fieldOfRefusal(error);
        if (field !== undefined && isApiError(error)) {
          form.setError(
            field,
            { type: 'server', message: error.body.cause },
            { shouldFocus: true },
          );
        }
      },
    });
  };

  const target = (current: GeneratedTopology) => ({
    publicKey: {
      ...current.publicKey,
      fingerprint: current.topology.generated.publicKeyFingerprint,
    },
    hash: current.topology.view.multiHash.bytes,
  });

  const signWithFile = async (file: File | undefined) => {
    setFileSignature(undefined);
    setKeyFileError(undefined);
    if (file === undefined || generated === undefined) return;
    const outcome = await signWithKeyFile(
      { size: file.size, bytes: async () => new Uint8Array(await file.arrayBuffer()) },
      target(generated),
    );
    if (outcome.ok) setFileSignature({ fileName: file.name, signature: outcome.signature });
    else setKeyFileError(outcome.message);
  };

  /**
   * What the plan needs of the external party, or undefined after putting a message where the
   * user must act: generate (again), download the key, choose the key file, fix the signature.
   */
  const signedInput = async (values: OnboardingValues): Promise<ExternalPartyInput | undefined> => {
    if (generated === undefined || !isGeneratedFor(generated, values)) {
      form.setError(
        'partyHint',
        {
          type: 'external',
          message:
            generated === undefined
              ? 'Generate the topology for this hint and key first, then have it signed.'
              : 'The hint, synchronizer or key changed since the topology was generated: generate it again.',
        },
        { shouldFocus: true },
      );
      return undefined;
    }
    if (!generated.topology.view.isMultiHashMatching) {
      form.setError('externalSignMethod', {
        type: 'external',
        message:
          'The participant’s multi-hash is not the hash of the topology shown: generate it again.',
      });
      return undefined;
    }
    let signature: WireSignature | undefined;
    if (values.externalSignMethod === 'browser') {
      if (browserKey === undefined && browserSignature === undefined) {
        form.setError('externalSignMethod', {
          type: 'external',
          message: 'The key made in this browser is gone: generate the topology again.',
        });
        return undefined;
      }
      if (browserKey !== undefined && !hasDownloaded) {
        form.setError('externalSignMethod', {
          type: 'external',
          message: 'Download the private key first: without it, nobody can act as the party.',
        });
        return undefined;
      }
      signature =
        browserKey === undefined
          ? browserSignature
          : await signHash(browserKey.key, generated.topology.view.multiHash.bytes);
      setBrowserSignature(signature);
    } else if (values.externalSignMethod === 'file') {
      if (fileSignature === undefined) {
        setKeyFileError((current) => current ?? "Choose the person's private key file.");
        return undefined;
      }
      signature = fileSignature.signature;
    } else {
      const outcome = await checkPastedSignature(values.externalSignature, target(generated));
      if (!outcome.ok) {
        form.setError(
          'externalSignature',
          { type: 'signature', message: outcome.message },
          { shouldFocus: true },
        );
        return undefined;
      }
      signature = outcome.signature;
    }
    if (signature === undefined) return undefined;
    const { generated: answer } = generated.topology;
    return {
      fingerprint: answer.publicKeyFingerprint,
      signed: {
        synchronizerId: generated.synchronizerId,
        topologyTransactions: answer.topologyTransactions,
        multiHashSignatures: [signature],
      },
    };
  };

  /** The run has ended: nothing of the key made in this browser stays. */
  const forgetKey = () => {
    setBrowserKey(undefined);
  };

  /** Another person: nothing of this one's party stays. */
  const reset = () => {
    setBrowserKey(undefined);
    setGenerated(undefined);
    setFileSignature(undefined);
    setKeyFileError(undefined);
    setBrowserSignature(undefined);
    setHasDownloaded(false);
    generate.reset();
  };

  return {
    browserKey,
    generated,
    hasDownloaded,
    markDownloaded: () => {
      setHasDownloaded(true);
    },
    fileSignature,
    keyFileError,
    signWithFile,
    generateTopology,
    isGenerating: generate.isPending || isMakingKey,
    /** A refusal of generate-topology that belongs to no field (those are on their field). */
    generateError: fieldOfRefusal(generate.error) === undefined ? generate.error : null,
    signedInput,
    forgetKey,
    reset,
  };
}

export type ExternalParty = ReturnType<typeof useExternalParty>;
