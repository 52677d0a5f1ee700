/**
 * What tests outside `sandbox/` use to talk to a sandbox: tokens it accepts and raw HTTP
 * exchanges for answers `fetch` would hide. Test code only.
 */
export { hs256Token, TEST_SECRET } from './tokens';
export {
  bodyOf,
  JS_CANTON_ERROR_KEYS,
  listen,
  rawExchange,
  send,
  type SentResponse,
} from './raw-http';
/** The `--seed demo` contents, for tests of what a newcomer finds (alice, bank, Iou…). */
export { DEMO_PARTY_HINTS, DEMO_USER_IDS, seedDemo } from '../seed/demo-seed';
