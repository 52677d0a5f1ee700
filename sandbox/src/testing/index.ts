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
