import type { APIRequestContext } from '@playwright/test';
import { createLedgerClient, type Transport } from '../../sandbox/src/scenarios/ledger-client';
import { ledgerSteps, type LedgerSteps } from '../../sandbox/src/scenarios/ledger-steps';
import { requestContextTransport } from './api';

/**
 * The scenario steps on one participant of the fleet console (`npm start -- --participants N`):
 * its API under `/participants/NAME`, as the console server proxies it.
 */
export function seedApiOn(request: APIRequestContext, participant: string): LedgerSteps {
  const transport = requestContextTransport(request);
  const prefixed: Transport = (sent) => {
    const url = new URL(sent.url);
    url.pathname = `/participants/${participant}${url.pathname}`;
    return transport(new Request(url, sent));
  };
  return ledgerSteps(createLedgerClient({ transport: prefixed }));
}
