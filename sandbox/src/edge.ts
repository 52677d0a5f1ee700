/**
 * The part of the sandbox's HTTP edge that a server in front of any participant shares with it:
 * the request guard (ADR 010), body-size limits and the binding warning. Loads no ledger, so the
 * console server can import it when it proxies to a real participant.
 */
export {
  checkRequest,
  parseHostList,
  parseOriginList,
  refusalBody,
  refusalResponseHead,
  type GuardRefusal,
  type RequestGuardPolicy,
} from './http/request-guard';
export { drainBriefly, parseByteCount } from './http/body-limit';
export { bindingWarning, type ExposedApi } from './http/binding-warning';
export {
  ACCESS_TOKEN_TTL_RANGE,
  DEFAULT_ACCESS_TOKEN_TTL,
  DEFAULT_REFRESH_TOKEN_TTL,
  parseOidcFlags,
  REFRESH_TOKEN_TTL_RANGE,
} from './oidc/oidc-flags';
