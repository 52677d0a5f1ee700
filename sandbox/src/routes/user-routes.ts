import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { z } from 'zod';
import {
  effectiveIdp,
  requireAdmin,
  requireAdminOrIdpAdmin,
  requireAuthenticated,
  requireSelfOrAdmin,
} from '../auth/authorizer';
import type { Claims } from '../auth/claims';
import {
  SandboxError,
  invalidArgument,
  invalidField,
  missingField,
  permissionDenied,
} from '../errors/sandbox-error';
import { fieldMaskSchema, list, message, queryInt32, readJsonBody, str } from '../http/decode';
import type { SandboxContext, SandboxEnv } from '../http/sandbox-env';
import type { LedgerState } from '../ledger-state';
import { ADMIN_ONLY_RIGHT_KINDS, toWireRight, type RightRecord } from '../store/rights';
import { uniqueRights, type UserRecord } from '../store/users-store';
import { isValidUserId, partyProblem, userIdRegexMessage } from '../validation/identifiers';
import {
  checkAnnotations,
  checkIdentityProviderExists,
  checkIdentityProviderIdSyntax,
  checkResourceVersion,
  mergeAnnotationsWithinLimit,
  nextPageToken,
  pageTokenAfter,
  parseResourceVersion,
} from './common-validation';
import { maskSets, maskTouches, updateMaskProblem } from './update-mask';
import {
  USER_UPDATE_PATHS,
  rightSchema,
  toRightRecords,
  toWireUser,
  userSchema,
} from './user-wire';

export const MAX_RIGHTS_PER_USER = 1000;
export const MAX_USERS_PAGE_SIZE = 1000;

const createUserRequest = z.object({ user: message(userSchema), rights: list(rightSchema) });
const updateUserRequest = z.object({
  user: message(userSchema),
  updateMask: message(fieldMaskSchema),
});
const rightsRequest = z.object({
  userId: str(),
  rights: list(rightSchema),
  identityProviderId: str(),
});
const changeIdpRequest = z.object({
  userId: str(),
  sourceIdentityProviderId: str(),
  targetIdentityProviderId: str(),
});

/** The JSON layer parses path ids itself and fails with its own INVALID_ARGUMENT (§2.1). */
function pathUserId(c: SandboxContext): string {
  const id = c.req.param('userId') ?? '';
  if (!isValidUserId(id)) {
    throw invalidArgument(`Malformed user-id: ${userIdRegexMessage(id)}`, { origin: 'json' });
  }
  return id;
}

/** PATCH and rights bodies must name the user of the path (§2.1); note the trailing space. */
function requireSameUser(pathId: string, bodyId: string | undefined) {
  if (bodyId !== pathId) {
    const rendered = bodyId === undefined ? 'None' : `Some(${bodyId})`;
    throw invalidArgument(`${pathId} does not match user in body: ${rendered} `, {
      origin: 'json',
    });
  }
}

/** A primary party is optional; when given it must be a valid party id. */
function checkPrimaryParty(party: string) {
  const problem = party === '' ? undefined : partyProblem(party);
  if (problem) throw invalidArgument(problem);
}

function checkUserId(id: string, fieldName: string) {
  if (id === '') throw missingField(fieldName);
  if (!isValidUserId(id)) throw invalidField(fieldName, userIdRegexMessage(id));
}

const userNotFound = (operation: string, id: string) =>
  new SandboxError('USER_NOT_FOUND', `${operation} failed for unknown user "${id}"`, {
    resources: [['USER', id]],
  });

const tooManyRights = (operation: string, id: string) =>
  new SandboxError(
    'TOO_MANY_USER_RIGHTS',
    `${operation} failed, as user "${id}" would have too many rights.`,
    {
      resources: [['USER', id]],
    },
  );

/** Loads a user of one IdP; a user that lives in another IdP is a (redacted) permission error. */
function userInIdp(state: LedgerState, id: string, idp: string, operation: string): UserRecord {
  const user = state.users.get(id);
  if (!user) throw userNotFound(operation, id);
  if (user.identityProviderId !== idp) throw otherIdentityProvider(id);
  return user;
}

/** Like userInIdp, for the callers that need only to know the user is there and theirs. */
function requireUserInIdp(state: LedgerState, id: string, idp: string, operation: string) {
  requireIdentityProvider(state.users.identityProviderOf(id), id, idp, operation);
}

/** `userIdp` is the user's IdP as read, undefined when there is no such user. */
function requireIdentityProvider(
  userIdp: string | undefined,
  id: string,
  idp: string,
  operation: string,
): asserts userIdp is string {
  if (userIdp === undefined) throw userNotFound(operation, id);
  if (userIdp !== idp) throw otherIdentityProvider(id);
}

const otherIdentityProvider = (id: string) =>
  permissionDenied(`User ${id} belongs to another Identity Provider`);

function requireGrantable(claims: Claims, rights: RightRecord[]) {
  if (!claims.admin && rights.some((right) => ADMIN_ONLY_RIGHT_KINDS.includes(right.kind))) {
    throw permissionDenied('Only participant admins may grant or revoke this right.');
  }
}

/**
 * IdP admins may only hand out CanActAs/CanReadAs over parties of their own IdP; participant
 * admins are not checked at all (ApiUserManagementService.verifyPartiesExistInIdp, §2.2).
 */
function requirePartiesInIdp(
  state: LedgerState,
  claims: Claims,
  idp: string,
  rights: RightRecord[],
) {
  if (claims.admin) return;
  const missing = [
    ...new Set(
      rights
        .filter((right) => right.kind === 'CanActAs' || right.kind === 'CanReadAs')
        .map((right) => right.party)
        .filter((party) => state.parties.get(party)?.identityProviderId !== idp),
    ),
  ].sort();
  if (missing.length > 0) {
    throw new SandboxError(
      'UNKNOWN_RESOURCE',
      `The submitted request refers to a non-existing PARTIES: Provided parties have not been found in identity_provider_id=\`${idp}\`: [${missing.join(', ')}].`,
      { resources: [['PARTIES', missing.join(',')]] },
    );
  }
}

function newSubmission(c: SandboxContext) {
  // Admin writes carry a submission id in the server's logging context, hence in error context.
  c.set('loggingContext', { submissionId: randomUUID() });
}

export function userRoutes(state: LedgerState, { authenticatedUserOnly = false } = {}) {
  const getUser = (caller: SandboxContext['var']['caller'], id: string, requestIdp: string) => {
    const { idp } = requireSelfOrAdmin(caller, id, requestIdp);
    return { user: toWireUser(userInIdp(state, id, idp, 'getting user')) };
  };

  /** The checks grant and revoke share, in the participant's order: decode, authorize, validate. */
  const readRightsChange = async (c: SandboxContext) => {
    newSubmission(c);
    const body = await readJsonBody(c, rightsRequest);
    requireSameUser(c.req.param('userId') ?? '', body.userId);
    const { claims, idp } = requireAdminOrIdpAdmin(c.get('caller'), body.identityProviderId);
    checkUserId(body.userId, 'user_id');
    const rights = toRightRecords(body.rights);
    requireGrantable(claims, rights);
    checkIdentityProviderIdSyntax(idp);
    checkIdentityProviderExists(state, idp);
    return { body, claims, idp, rights };
  };

  if (authenticatedUserOnly) {
    return new Hono<SandboxEnv>().get('/', (c) => {
      const claims = requireAuthenticated(c.get('caller'));
      if (claims.userId === undefined) {
        throw new SandboxError(
          'INVALID_TOKEN',
          'The submitted request is missing a user-id: requests with an empty user-id are only supported if there is an authenticated user',
        );
      }
      const idp = effectiveIdp(claims, c.req.query('identity-provider-id') ?? '');
      return c.json(getUser(c.get('caller'), claims.userId, idp));
    });
  }

  return new Hono<SandboxEnv>()
    .get('/', (c) => {
      const pageSize = queryInt32(c, 'pageSize');
      const pageToken = c.req.query('pageToken') ?? '';
      const { idp } = requireAdminOrIdpAdmin(c.get('caller'), '');
      if (pageSize !== undefined && pageSize < 0)
        throw invalidArgument('Max page size must be non-negative');
      const after = pageTokenAfter(pageToken, isValidUserId);
      // Absent or 0 means the server maximum; larger sizes are capped silently (§2.6).
      const limit = !pageSize ? MAX_USERS_PAGE_SIZE : Math.min(pageSize, MAX_USERS_PAGE_SIZE);
      const users = state.users.pageWire(idp, after, limit);
      const next = nextPageToken(users, limit, (user) => user.id);
      // Users are stored pre-encoded; splice them in rather than parse and re-encode 1000 objects.
      c.header('content-type', 'application/json');
      return c.body(
        `{"users":[${users.map((user) => user.wire).join(',')}],"nextPageToken":"${next}"}`,
      );
    })
    .post('/', async (c) => {
      newSubmission(c);
      const { user, rights: wireRights } = await readJsonBody(c, createUserRequest);
      const { claims, idp } = requireAdminOrIdpAdmin(
        c.get('caller'),
        user?.identityProviderId ?? '',
      );
      if (!user) throw missingField('user');
      checkUserId(user.id, 'id');
      checkPrimaryParty(user.primaryParty);
      if (user.metadata && user.metadata.resourceVersion !== '') {
        throw invalidArgument('field user.metadata.resource_version must be not set');
      }
      checkAnnotations(user.metadata?.annotations ?? {}, 'user.metadata.annotations', false);
      checkIdentityProviderIdSyntax(idp);
      const rights = toRightRecords(wireRights);
      requireGrantable(claims, rights);
      checkIdentityProviderExists(state, idp);
      requirePartiesInIdp(state, claims, idp, rights);
      const asked = uniqueRights(rights);
      const record: UserRecord = {
        id: user.id,
        primaryParty: user.primaryParty,
        isDeactivated: user.isDeactivated,
        resourceVersion: 0,
        annotations: user.metadata?.annotations ?? {},
        identityProviderId: idp,
        primaryPartyAuthentication: user.primaryPartyAuthentication,
      };
      state.transaction(() => {
        // The insert is the check for a taken id: one statement instead of a read and a write.
        if (!state.users.insertIfAbsent(record)) {
          const existingIdp = state.users.identityProviderOf(user.id);
          if (existingIdp !== idp) throw otherIdentityProvider(user.id);
          throw new SandboxError(
            'USER_ALREADY_EXISTS',
            `creating user failed, as user "${user.id}" already exists`,
            { resources: [['USER', user.id]] },
          );
        }
        // A new user has no rights but these; over the limit the user is not created either.
        if (asked.length > MAX_RIGHTS_PER_USER) throw tooManyRights('creating user', user.id);
        state.users.addRights(user.id, asked);
      });
      return c.json({ user: toWireUser(record) });
    })
    .get('/:userId', (c) => {
      const id = pathUserId(c);
      return c.json(getUser(c.get('caller'), id, c.req.query('identity-provider-id') ?? ''));
    })
    .patch('/:userId', async (c) => {
      newSubmission(c);
      const pathId = c.req.param('userId');
      const { user, updateMask } = await readJsonBody(c, updateUserRequest);
      requireSameUser(pathId, user?.id);
      const { claims, idp } = requireAdminOrIdpAdmin(
        c.get('caller'),
        user?.identityProviderId ?? '',
      );
      if (!user) throw missingField('user');
      if (!updateMask) throw missingField('update_mask');
      checkUserId(user.id, 'user.id');
      checkPrimaryParty(user.primaryParty);
      const annotations = user.metadata?.annotations ?? {};
      checkAnnotations(annotations, 'user.metadata.annotations', true);
      const expectedVersion = parseResourceVersion(
        user.metadata?.resourceVersion ?? '',
        'user.metadata.resource_version',
      );
      checkIdentityProviderIdSyntax(idp);
      const maskProblem = updateMaskProblem(updateMask.paths, USER_UPDATE_PATHS);
      if (maskProblem) {
        throw new SandboxError(
          'INVALID_USER_UPDATE_REQUEST',
          `Update operation for user id '${user.id}' failed due to: ${maskProblem}`,
          { resources: [['USER', user.id]] },
        );
      }
      checkIdentityProviderExists(state, idp);
      const paths = updateMask.paths;
      const deactivates = maskTouches(paths, 'is_deactivated') !== undefined && user.isDeactivated;
      if (deactivates && claims.userId === user.id) {
        throw invalidArgument('Requesting user cannot self-deactivate');
      }
      const updated = state.transaction(() => {
        const current = userInIdp(state, user.id, idp, 'updating user');
        checkResourceVersion(
          expectedVersion,
          current.resourceVersion,
          'CONCURRENT_USER_UPDATE_DETECTED',
          ['USER', user.id],
        );
        const next: UserRecord = { ...current, resourceVersion: current.resourceVersion + 1 };
        const apply = (field: string, isDefault: boolean) => maskSets(paths, field, isDefault);
        if (apply('primary_party', user.primaryParty === '')) next.primaryParty = user.primaryParty;
        if (apply('is_deactivated', !user.isDeactivated)) next.isDeactivated = user.isDeactivated;
        if (apply('primary_party_authentication', !user.primaryPartyAuthentication)) {
          next.primaryPartyAuthentication = user.primaryPartyAuthentication;
        }
        if (apply('metadata.annotations', Object.keys(annotations).length === 0)) {
          next.annotations = mergeAnnotationsWithinLimit(
            current.annotations,
            annotations,
            'MAX_USER_ANNOTATIONS_SIZE_EXCEEDED',
            ['USER', user.id],
          );
        }
        state.users.update(next);
        return next;
      });
      return c.json({ user: toWireUser(updated) });
    })
    .delete('/:userId', (c) => {
      newSubmission(c);
      const id = pathUserId(c);
      // The JSON API always sends identity_provider_id "" here (§2.1, §2.7).
      const { claims, idp } = requireAdminOrIdpAdmin(c.get('caller'), '');
      if (claims.userId === id) throw invalidArgument('Requesting user cannot delete itself');
      state.transaction(() => {
        requireUserInIdp(state, id, idp, 'deleting user');
        state.users.delete(id);
      });
      return c.json({});
    })
    .get('/:userId/rights', (c) => {
      const id = pathUserId(c);
      const { idp } = requireSelfOrAdmin(c.get('caller'), id, '');
      requireUserInIdp(state, id, idp, 'list user rights');
      return c.json({ rights: state.users.rights(id).map(toWireRight) });
    })
    .post('/:userId/rights', async (c) => {
      const { body, claims, idp, rights } = await readRightsChange(c);
      requirePartiesInIdp(state, claims, idp, rights);
      const target = state.users.grantTarget(body.userId);
      requireIdentityProvider(target?.idp, body.userId, idp, 'grant user rights');
      const asked = uniqueRights(rights);
      // One right that fits even if new is one statement, atomic on its own; the handler runs
      // synchronously from the read, so no other write comes between. Anything else is checked
      // after adding, and over the limit the whole grant rolls back; exactly 1000 is allowed
      // (§2.7). A grant that added nothing left the count as it was, within the limit.
      const granted =
        asked.length === 1 && target.rightCount < MAX_RIGHTS_PER_USER
          ? state.users.addRights(body.userId, asked)
          : state.transaction(() => {
              const added = state.users.addRights(body.userId, asked);
              if (added.length > 0 && state.users.countRights(body.userId) > MAX_RIGHTS_PER_USER) {
                throw tooManyRights('grant user rights', body.userId);
              }
              return added;
            });
      return c.json({ newlyGrantedRights: granted.map(toWireRight) });
    })
    .patch('/:userId/rights', async (c) => {
      const { body, claims, idp, rights } = await readRightsChange(c);
      if (
        claims.userId === body.userId &&
        rights.some((right) => right.kind === 'ParticipantAdmin')
      ) {
        throw invalidArgument('Requesting user cannot remove own admin rights');
      }
      const revoked = state.transaction(() => {
        requireUserInIdp(state, body.userId, idp, 'revoke user rights');
        return state.users.removeRights(body.userId, rights);
      });
      return c.json({ newlyRevokedRights: revoked.map(toWireRight) });
    })
    .patch('/:userId/identity-provider-id', async (c) => {
      newSubmission(c);
      const pathId = c.req.param('userId');
      const body = await readJsonBody(c, changeIdpRequest);
      requireSameUser(pathId, body.userId);
      requireAdmin(c.get('caller'));
      checkUserId(body.userId, 'user_id');
      checkIdentityProviderIdSyntax(body.sourceIdentityProviderId);
      checkIdentityProviderIdSyntax(body.targetIdentityProviderId);
      checkIdentityProviderExists(state, body.sourceIdentityProviderId);
      checkIdentityProviderExists(state, body.targetIdentityProviderId);
      state.transaction(() => {
        const user = userInIdp(
          state,
          body.userId,
          body.sourceIdentityProviderId,
          'update user identity provider',
        );
        // Only the IdP column changes; the resource version stays (§2.8).
        state.users.update({ ...user, identityProviderId: body.targetIdentityProviderId });
      });
      return c.json({});
    });
}
