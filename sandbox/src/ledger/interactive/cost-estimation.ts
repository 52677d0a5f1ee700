import { formatMicros, nowMicros } from '../transaction';

/**
 * The traffic cost estimate a prepare answers with: a deterministic model (inferred, see
 * docs/sandbox-fidelity.md), shaped after Canton's EventCostCalculator. An envelope costs its
 * bytes (the write cost) plus a read cost of bytes × recipients × readVsWriteScalingFactor / 10000
 * (200 by default, base event cost 0). The sandbox has no synchronizer to measure envelopes on,
 * so the confirmation request is taken as the prepared transaction's bytes, the signatures it
 * will carry and a fixed envelope overhead, sent to this participant and the mediator; the
 * confirmation response as a fixed-size message to the mediator.
 */

export const READ_VS_WRITE_SCALING_FACTOR = 200n;
/** View headers, root hash messages and envelope framing around the transaction (inferred). */
export const CONFIRMATION_REQUEST_OVERHEAD_BYTES = 1024n;
/** One confirmation response with its signature (inferred). */
export const CONFIRMATION_RESPONSE_BYTES = 512n;
/** This participant and the mediator group. */
const REQUEST_RECIPIENTS = 2n;
const RESPONSE_RECIPIENTS = 1n;

/** Signature sizes in bytes, by `SigningAlgorithmSpec` (the largest DER encodings for ECDSA). */
export const SIGNATURE_BYTES: Readonly<Record<string, bigint>> = {
  SIGNING_ALGORITHM_SPEC_UNSPECIFIED: 64n,
  SIGNING_ALGORITHM_SPEC_ED25519: 64n,
  SIGNING_ALGORITHM_SPEC_EC_DSA_SHA_256: 72n,
  SIGNING_ALGORITHM_SPEC_EC_DSA_SHA_384: 104n,
  SIGNING_ALGORITHM_SPEC_ML_DSA_65: 3309n,
};

const envelopeCost = (bytes: bigint, recipients: bigint) =>
  bytes + (bytes * recipients * READ_VS_WRITE_SCALING_FACTOR) / 10_000n;

export type CostEstimation = {
  estimationTimestamp: string;
  confirmationRequestTrafficCostEstimation: number;
  confirmationResponseTrafficCostEstimation: number;
  totalTrafficCostEstimation: number;
};

/**
 * What the submitting participant pays for ordering the confirmation request of a transaction
 * of `preparedBytes` bytes (in the prepared-transaction encoding) carrying one signature of each
 * of `signatureAlgorithms`: the `paidTrafficCost` of its completion and transaction, and the
 * request part of prepare's estimate, so the two agree for the same command.
 */
export function confirmationRequestCost(
  preparedBytes: number,
  signatureAlgorithms: readonly string[],
): bigint {
  const signatures = signatureAlgorithms.reduce(
    (sum, algorithm) => sum + (SIGNATURE_BYTES[algorithm] ?? 64n),
    0n,
  );
  return envelopeCost(
    BigInt(preparedBytes) + signatures + CONFIRMATION_REQUEST_OVERHEAD_BYTES,
    REQUEST_RECIPIENTS,
  );
}

/**
 * The estimate for a prepared transaction of `preparedBytes` bytes that will carry one signature
 * of each of `signatureAlgorithms`.
 */
export function estimateTrafficCost(
  preparedBytes: number,
  signatureAlgorithms: readonly string[],
): CostEstimation {
  const request = confirmationRequestCost(preparedBytes, signatureAlgorithms);
  const response = envelopeCost(CONFIRMATION_RESPONSE_BYTES, RESPONSE_RECIPIENTS);
  return {
    estimationTimestamp: formatMicros(nowMicros()),
    confirmationRequestTrafficCostEstimation: Number(request),
    confirmationResponseTrafficCostEstimation: Number(response),
    totalTrafficCostEstimation: Number(request + response),
  };
}
