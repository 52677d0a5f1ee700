import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLedgerState, type LedgerState } from '../ledger-state';

/**
 * The catalog answers from the package store: the built-in package is one stored archive among
 * others, so what its templates implement is read from its decoded `implements`.
 */

let state: LedgerState;
let holding: string;
let iou: string;
beforeEach(() => {
  state = createLedgerState();
  holding = `${state.demoPackageId}:Demo.Holding:Holding`;
  iou = `${state.demoPackageId}:Demo.Iou:Iou`;
});
afterEach(() => {
  state.close();
});

describe('the interface catalog', () => {
  it('finds the Iou implementing Holding by package id and by package name, and computes its view', () => {
    for (const reference of [holding, '#sandbox-demo:Demo.Holding:Holding']) {
      const implementation = state.interfaces.implementation(reference, iou);
      expect(implementation?.interfaceId, reference).toBe(holding);
      expect(
        implementation?.view({
          issuer: 'Bank::1220',
          owner: 'Alice::1220',
          currency: 'EUR',
          amount: '3.0000000000',
          observers: [],
        }),
      ).toEqual({
        ok: true,
        value: {
          owner: 'Alice::1220',
          issuer: 'Bank::1220',
          amount: '3.0000000000',
          currency: 'EUR',
        },
        implementationPackageId: state.demoPackageId,
      });
    }
  });

  it('finds nothing for templates that do not implement it, unknown packages or other names', () => {
    const fanout = `${state.demoPackageId}:Demo.Fanout:Fanout`;
    expect(state.interfaces.implementation(holding, fanout)).toBeUndefined();
    expect(
      state.interfaces.implementation(holding, `${'ab'.repeat(32)}:Demo.Iou:Iou`),
    ).toBeUndefined();
    expect(state.interfaces.implementation('#other:Demo.Holding:Holding', iou)).toBeUndefined();
    expect(state.interfaces.implementation('Demo.Holding:Holding', iou)).toBeUndefined();
    expect(state.interfaces.implementation(holding, 'not-a-template-id')).toBeUndefined();
  });
});
