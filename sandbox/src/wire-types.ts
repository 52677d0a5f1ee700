import type { v3_5 } from '@canton-network/core-ledger-client-types';

/** Wire types generated from the official 3.5 OpenAPI document; the SPA uses the same ones. */
export type Schemas = v3_5.components['schemas'];
