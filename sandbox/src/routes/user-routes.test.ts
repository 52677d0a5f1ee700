import { describe, expect, it } from 'vitest';
import {
  canActAs,
  canExecuteAs,
  canReadAs,
  expectDecodeFailure,
  expectError,
  plainRight,
  sandboxPerTest,
} from '../testing/test-client';
import { defaultUser } from '../store/users-store';

const t = sandboxPerTest();

/** One right of every kind the spec names. */
const ALL_RIGHT_KINDS = [
  canActAs('p1'),
  canReadAs('p2'),
  canExecuteAs('p3'),
  plainRight('ParticipantAdmin'),
  plainRight('IdentityProviderAdmin'),
  plainRight('CanActAsAnyParty'),
  plainRight('CanReadAsAnyParty'),
  plainRight('CanExecuteAsAnyParty'),
];

const createUser = (id: string, extra: Record<string, unknown> = {}, rights: unknown[] = []) =>
  t.post('/v2/users', { user: { id, ...extra }, rights });

describe('POST /v2/users', () => {
  it('creates a user with rights in one request, at resource version 0', async () => {
    const created = await createUser(
      'alice',
      { primaryParty: 'Alice::1220aa', metadata: { annotations: { team: 'ops' } } },
      [canActAs('Alice::1220aa'), plainRight('CanReadAsAnyParty')],
    );
    expect(created.status).toBe(200);
    expect(created.json).toEqual({
      user: {
        id: 'alice',
        primaryParty: 'Alice::1220aa',
        isDeactivated: false,
        metadata: { resourceVersion: '0', annotations: { team: 'ops' } },
        identityProviderId: '',
        primaryPartyAuthentication: false,
      },
    });
    const rights = await t.get('/v2/users/alice/rights');
    expect(rights.json.rights).toEqual(
      expect.arrayContaining([canActAs('Alice::1220aa'), plainRight('CanReadAsAnyParty')]),
    );
    expect(rights.json.rights).toHaveLength(2);
  });

  it('accepts every right kind of the spec', async () => {
    expect((await createUser('everything', {}, ALL_RIGHT_KINDS)).status).toBe(200);
    const { json } = await t.get('/v2/users/everything/rights');
    expect(json.rights).toHaveLength(8);
    expect(json.rights).toEqual(expect.arrayContaining(ALL_RIGHT_KINDS));
  });

  it('collapses duplicate rights in one request', async () => {
    await createUser('dup', {}, [canActAs('p'), canActAs('p')]);
    expect((await t.get('/v2/users/dup/rights')).json.rights).toEqual([canActAs('p')]);
  });

  it('answers USER_ALREADY_EXISTS (409) for a taken id', async () => {
    await createUser('bob');
    const error = expectError(await createUser('bob'), 409, 'USER_ALREADY_EXISTS');
    expect(error.cause).toBe('creating user failed, as user "bob" already exists');
    expect(error.resources).toEqual([['USER', 'bob']]);
    expect(error.errorCategory).toBe(10);
    expect(error.grpcCodeValue).toBe(6);
    expect(error.context).toMatchObject({ category: '10', participant: 'sandbox' });
  });

  it('rejects a missing user with MISSING_FIELD and an empty id likewise', async () => {
    const missing = expectError(await t.post('/v2/users', {}), 400, 'MISSING_FIELD');
    expect(missing.cause).toBe('The submitted command is missing a mandatory field: user');
    const empty = expectError(await createUser(''), 400, 'MISSING_FIELD');
    expect(empty.cause).toBe('The submitted command is missing a mandatory field: id');
    expect(empty.context).toMatchObject({ field_name: 'id', definite_answer: 'false' });
  });

  it('validates the id charset and length like the server (INVALID_FIELD)', async () => {
    const error = expectError(await createUser('bad id'), 400, 'INVALID_FIELD');
    expect(error.cause).toContain('Invalid field id: User ID "bad id" does not match regex');
    expectError(await createUser('x'.repeat(129)), 400, 'INVALID_FIELD');
    expect((await createUser('x'.repeat(128))).status).toBe(200);
    expect((await createUser("a@^$.!`-#+'~_|:()Z9")).status).toBe(200);
  });

  it('rejects a malformed primary party with INVALID_ARGUMENT naming the character', async () => {
    const error = expectError(
      await createUser('p', { primaryParty: 'party2-!!' }),
      400,
      'INVALID_ARGUMENT',
    );
    expect(error.cause).toBe(
      'The submitted request has invalid arguments: non expected character 0x21 in Daml-LF Party "party2-!!"',
    );
  });

  it('refuses a resource version on create', async () => {
    const error = expectError(
      await createUser('v', { metadata: { resourceVersion: '3', annotations: {} } }),
      400,
      'INVALID_ARGUMENT',
    );
    expect(error.cause).toContain('field user.metadata.resource_version must be not set');
  });

  it('validates annotations: key syntax, empty values and the 256 KiB limit', async () => {
    const badKey = await createUser('a1', { metadata: { annotations: { 'a/b/c': 'x' } } });
    expect(expectError(badKey, 400, 'INVALID_ARGUMENT').cause).toContain(
      'more than one forward slash',
    );
    const emptyValue = await createUser('a2', { metadata: { annotations: { k: '' } } });
    expect(expectError(emptyValue, 400, 'INVALID_ARGUMENT').cause).toContain(
      "The value of an annotation is empty for key: 'k'",
    );
    const big = await createUser('a3', {
      metadata: { annotations: { k: 'x'.repeat(256 * 1024) } },
    });
    expect(expectError(big, 400, 'INVALID_ARGUMENT').cause).toContain(
      'larger than the limit of 256kb',
    );
    const prefixed = await createUser('a4', {
      metadata: { annotations: { 'example.com/owner': 'me' } },
    });
    expect(prefixed.status).toBe(200);
  });

  it('checks a __proto__ key like any other, on create and update', async () => {
    // JSON.parse makes __proto__ an own key, as the wire carries it; a literal would not.
    const proto = JSON.parse('{"__proto__":"x","team":"ops"}') as Record<string, string>;
    const invalid = "Key name segment '__proto__' has invalid syntax";
    const created = await createUser('p1', { metadata: { annotations: proto } });
    expect(expectError(created, 400, 'INVALID_ARGUMENT').cause).toContain(invalid);
    expectError(await t.get('/v2/users/p1'), 404, 'USER_NOT_FOUND');
    await createUser('p2', { metadata: { annotations: { team: 'ops' } } });
    const updated = await t.patch('/v2/users/p2', {
      user: { id: 'p2', metadata: { annotations: JSON.parse('{"__proto__":""}') as object } },
      updateMask: { paths: ['metadata.annotations'] },
    });
    expect(expectError(updated, 400, 'INVALID_ARGUMENT').cause).toContain(invalid);
    const wrongType = await createUser('p3', {
      metadata: { annotations: JSON.parse('{"__proto__":1}') as object },
    });
    expectDecodeFailure(
      wrongType,
      "Invalid value for: body (Got value '1' with wrong type, expecting String at 'user.metadata.annotations.__proto__')",
    );
    // Keys naming Object.prototype members are ordinary valid keys, stored and returned.
    const members = { constructor: 'c', toString: 't', hasOwnProperty: 'h' };
    await createUser('p4', { metadata: { annotations: members } });
    expect((await t.get('/v2/users/p4')).json.user.metadata.annotations).toEqual(members);
  });

  it('rejects an unknown identity provider and a right without kind', async () => {
    const idp = expectError(
      await createUser('i', { identityProviderId: 'nope' }),
      400,
      'INVALID_ARGUMENT',
    );
    expect(idp.cause).toContain('Provided identity_provider_id Id(nope) has not been found.');
    const kind = expectError(await createUser('k', {}, [{}]), 400, 'INVALID_ARGUMENT');
    expect(kind.cause).toContain('unknown kind of right');
    const empty = expectError(
      await createUser('k', {}, [{ kind: { Empty: { value: {} } } }]),
      400,
      'INVALID_ARGUMENT',
    );
    expect(empty.cause).toContain('unknown kind of right');
  });

  it('answers TOO_MANY_USER_RIGHTS above 1000 rights and stores nothing', async () => {
    const rights = Array.from({ length: 1001 }, (_, i) => canActAs(`p${String(i)}`));
    expectError(await createUser('many', {}, rights), 400, 'TOO_MANY_USER_RIGHTS');
    expectError(await t.get('/v2/users/many'), 404, 'USER_NOT_FOUND');
    expect((await createUser('many', {}, rights.slice(0, 1000))).status).toBe(200);
  });

  it('answers text/plain 400 for bodies that do not decode', async () => {
    expectDecodeFailure(
      await t.call('POST', '/v2/users', { rawBody: '' }),
      'Invalid value for: body (exhausted input)',
    );
    expectDecodeFailure(
      await t.call('POST', '/v2/users', { rawBody: 'x' }),
      "Invalid value for: body (expected json value got 'x' (line 1, column 1))",
    );
    expectDecodeFailure(
      await t.post('/v2/users', { user: { id: 7 } }),
      "Invalid value for: body (Got value '7' with wrong type, expecting String at 'user.id')",
    );
    expectDecodeFailure(
      await t.post('/v2/users', { user: { id: 'x' }, rights: [{ kind: { CanActAs: {} } }] }),
      "Invalid value for: body (Missing required field at 'rights[0].kind.CanActAs.value')",
    );
  });
});

describe('GET /v2/users', () => {
  it('lists participant_admin on a fresh participant', async () => {
    const { json } = await t.get('/v2/users');
    expect(json.users.map((u: { id: string }) => u.id)).toEqual(['participant_admin']);
    expect(json.nextPageToken).toBe('');
  });

  it('pages in byte order with opaque tokens, a full page still carrying a token', async () => {
    for (const id of ['b', 'B', 'a', '_', 'A', '1']) await createUser(id);
    const first = await t.get('/v2/users?pageSize=3');
    expect(first.json.users.map((u: { id: string }) => u.id)).toEqual(['1', 'A', 'B']);
    expect(first.json.nextPageToken).toBe('CgFC');
    const second = await t.get(
      `/v2/users?pageSize=3&pageToken=${encodeURIComponent(first.json.nextPageToken)}`,
    );
    expect(second.json.users.map((u: { id: string }) => u.id)).toEqual(['_', 'a', 'b']);
    expect(second.json.nextPageToken).not.toBe('');
    const third = await t.get(
      `/v2/users?pageSize=3&pageToken=${encodeURIComponent(second.json.nextPageToken)}`,
    );
    expect(third.json.users.map((u: { id: string }) => u.id)).toEqual(['participant_admin']);
    expect(third.json.nextPageToken).toBe('');
  });

  it('encodes tokens like the real server', async () => {
    await createUser('alice');
    const page = await t.get('/v2/users?pageSize=1');
    expect(page.json.nextPageToken).toBe('CgVhbGljZQ==');
  });

  it('defaults to and silently caps at 1000 per page', async () => {
    t.state.transaction(() => {
      for (let i = 0; i < 1100; i++) {
        t.state.users.insert(defaultUser(`u${String(i).padStart(5, '0')}`));
      }
    });
    expect((await t.get('/v2/users')).json.users).toHaveLength(1000);
    expect((await t.get('/v2/users?pageSize=5000')).json.users).toHaveLength(1000);
    expect((await t.get('/v2/users?pageSize=0')).json.users).toHaveLength(1000);
  });

  it('rejects negative sizes, bad tokens and non-integers', async () => {
    const negative = expectError(await t.get('/v2/users?pageSize=-1'), 400, 'INVALID_ARGUMENT');
    expect(negative.cause).toContain('Max page size must be non-negative');
    const token = expectError(await t.get('/v2/users?pageToken=garbage'), 400, 'INVALID_ARGUMENT');
    expect(token.cause).toBe('The submitted request has invalid arguments: Invalid page token');
    expectDecodeFailure(
      await t.get('/v2/users?pageSize=ten'),
      'Invalid value for: query parameter pageSize',
    );
  });
});

describe('GET/PATCH/DELETE /v2/users/{user-id}', () => {
  it('gets a user and answers USER_NOT_FOUND for an unknown one', async () => {
    await createUser('carol');
    expect((await t.get('/v2/users/carol')).json.user.id).toBe('carol');
    const error = expectError(await t.get('/v2/users/nobody'), 404, 'USER_NOT_FOUND');
    expect(error.cause).toBe('getting user failed for unknown user "nobody"');
  });

  it('rejects a malformed path id in the JSON layer', async () => {
    const result = await t.get('/v2/users/bad%25id');
    const error = expectError(result, 400, 'INVALID_ARGUMENT');
    expect(error.cause).toContain('Malformed user-id: User ID "bad%id"');
    // JSON-layer errors carry no category or tid in context and a definite answer.
    expect(error.context).toEqual({});
    expect(result.json.definiteAnswer).toBe(false);
  });

  it('updates fields named by the mask and bumps the version, even for a no-op', async () => {
    await createUser('dave', { primaryParty: 'P', metadata: { annotations: { a: '1', b: '2' } } });
    const updated = await t.patch('/v2/users/dave', {
      user: {
        id: 'dave',
        primaryParty: '',
        isDeactivated: true,
        metadata: { annotations: { a: '', c: '3' } },
      },
      updateMask: { paths: ['primary_party', 'is_deactivated', 'metadata.annotations'] },
    });
    expect(updated.json.user).toMatchObject({
      primaryParty: '',
      isDeactivated: true,
      metadata: { resourceVersion: '1', annotations: { b: '2', c: '3' } },
    });
    const noop = await t.patch('/v2/users/dave', {
      user: { id: 'dave' },
      updateMask: { paths: ['metadata'] },
    });
    expect(noop.json.user.metadata).toEqual({
      resourceVersion: '2',
      annotations: { b: '2', c: '3' },
    });
  });

  it('detects concurrent updates through the resource version', async () => {
    await createUser('erin');
    const ok = await t.patch('/v2/users/erin', {
      user: { id: 'erin', primaryParty: 'E', metadata: { resourceVersion: '0' } },
      updateMask: { paths: ['primary_party'] },
    });
    expect(ok.status).toBe(200);
    const stale = await t.patch('/v2/users/erin', {
      user: { id: 'erin', primaryParty: 'F', metadata: { resourceVersion: '0' } },
      updateMask: { paths: ['primary_party'] },
    });
    const error = expectError(stale, 409, 'CONCURRENT_USER_UPDATE_DETECTED');
    expect(error.cause).toBe(
      "Update operation for user 'erin' failed due to a concurrent update to the same user",
    );
    expect(stale.json.retryInfo).toBe('1 second');
    const garbage = await t.patch('/v2/users/erin', {
      user: { id: 'erin', metadata: { resourceVersion: 'abc' } },
      updateMask: { paths: ['primary_party'] },
    });
    expectError(garbage, 400, 'INVALID_FIELD');
  });

  it('validates the update mask', async () => {
    await createUser('fay');
    const patch = (paths: string[]) =>
      t.patch('/v2/users/fay', { user: { id: 'fay' }, updateMask: { paths } });
    expect(expectError(await patch([]), 400, 'INVALID_USER_UPDATE_REQUEST').cause).toBe(
      "Update operation for user id 'fay' failed due to: The update mask contains no entries",
    );
    expect(expectError(await patch(['foo']), 400, 'INVALID_USER_UPDATE_REQUEST').cause).toContain(
      "The update path: 'foo' points to an unknown field.",
    );
    expect(
      expectError(await patch(['id', 'id']), 400, 'INVALID_USER_UPDATE_REQUEST').cause,
    ).toContain("The update path: 'id' is duplicated.");
    const noMask = await t.patch('/v2/users/fay', { user: { id: 'fay' } });
    expect(expectError(noMask, 400, 'MISSING_FIELD').cause).toContain('update_mask');
  });

  it('requires the body to name the path user', async () => {
    await createUser('gus');
    const error = expectError(
      await t.patch('/v2/users/gus', { user: { id: 'other' }, updateMask: { paths: ['id'] } }),
      400,
      'INVALID_ARGUMENT',
    );
    expect(error.cause).toBe(
      'The submitted request has invalid arguments: gus does not match user in body: Some(other) ',
    );
  });

  it('deletes a user with its rights', async () => {
    await createUser('hal', {}, [canActAs('x')]);
    expect((await t.delete('/v2/users/hal')).json).toEqual({});
    expectError(await t.get('/v2/users/hal'), 404, 'USER_NOT_FOUND');
    expect(expectError(await t.delete('/v2/users/hal'), 404, 'USER_NOT_FOUND').cause).toBe(
      'deleting user failed for unknown user "hal"',
    );
    await createUser('hal');
    expect((await t.get('/v2/users/hal/rights')).json.rights).toEqual([]);
  });
});

describe('rights', () => {
  it('grants idempotently, reporting only new rights', async () => {
    await createUser('ivy');
    const grant = () =>
      t.post('/v2/users/ivy/rights', {
        userId: 'ivy',
        rights: [canActAs('p'), plainRight('ParticipantAdmin')],
      });
    expect((await grant()).json.newlyGrantedRights).toHaveLength(2);
    expect((await grant()).json).toEqual({ newlyGrantedRights: [] });
  });

  it('revokes idempotently, reporting only rights that were there', async () => {
    await createUser('jan', {}, [canActAs('p'), canReadAs('q')]);
    const revoke = () =>
      t.patch('/v2/users/jan/rights', {
        userId: 'jan',
        rights: [canActAs('p'), canExecuteAs('z')],
      });
    expect((await revoke()).json).toEqual({ newlyRevokedRights: [canActAs('p')] });
    expect((await revoke()).json).toEqual({ newlyRevokedRights: [] });
    expect((await t.get('/v2/users/jan/rights')).json.rights).toEqual([canReadAs('q')]);
  });

  it('does not change the resource version', async () => {
    await createUser('kim');
    await t.post('/v2/users/kim/rights', { userId: 'kim', rights: [canActAs('p')] });
    expect((await t.get('/v2/users/kim')).json.user.metadata.resourceVersion).toBe('0');
  });

  it('rolls back a grant that would pass 1000 rights; exactly 1000 is fine', async () => {
    await createUser(
      'lou',
      {},
      Array.from({ length: 999 }, (_, i) => canActAs(`p${String(i)}`)),
    );
    expect(
      (await t.post('/v2/users/lou/rights', { userId: 'lou', rights: [canActAs('last')] })).status,
    ).toBe(200);
    const over = await t.post('/v2/users/lou/rights', {
      userId: 'lou',
      rights: [canActAs('a'), canActAs('b')],
    });
    expect(expectError(over, 400, 'TOO_MANY_USER_RIGHTS').cause).toBe(
      'grant user rights failed, as user "lou" would have too many rights.',
    );
    expect((await t.get('/v2/users/lou/rights')).json.rights).toHaveLength(1000);
    // At the limit one more right is refused, and one already held is no change.
    const one = await t.post('/v2/users/lou/rights', { userId: 'lou', rights: [canActAs('c')] });
    expectError(one, 400, 'TOO_MANY_USER_RIGHTS');
    const again = await t.post('/v2/users/lou/rights', {
      userId: 'lou',
      rights: [canActAs('last')],
    });
    expect(again.json).toEqual({ newlyGrantedRights: [] });
    expect((await t.get('/v2/users/lou/rights')).json.rights).toHaveLength(1000);
  });

  it('decodes every Kind variant as the spec writes it, in create, grant and revoke', async () => {
    await createUser('kinds');
    const granted = await t.post('/v2/users/kinds/rights', {
      userId: 'kinds',
      rights: ALL_RIGHT_KINDS,
    });
    expect(granted.json.newlyGrantedRights).toHaveLength(8);
    expect(granted.json.newlyGrantedRights).toEqual(expect.arrayContaining(ALL_RIGHT_KINDS));
    const revoked = await t.patch('/v2/users/kinds/rights', {
      userId: 'kinds',
      rights: ALL_RIGHT_KINDS,
    });
    expect(revoked.json.newlyRevokedRights).toHaveLength(8);
    expect(revoked.json.newlyRevokedRights).toEqual(expect.arrayContaining(ALL_RIGHT_KINDS));
    expect((await t.get('/v2/users/kinds/rights')).json).toEqual({ rights: [] });
  });

  it('refuses Empty, written with or without a value, as an unknown kind of right', async () => {
    await createUser('nil');
    const unknownKind = 'unknown kind of right - check that the Ledger API version';
    for (const empty of [{ kind: { Empty: {} } }, { kind: { Empty: { value: {} } } }]) {
      const created = await createUser('nil2', {}, [empty]);
      expect(expectError(created, 400, 'INVALID_ARGUMENT').cause).toContain(unknownKind);
      const grant = await t.post('/v2/users/nil/rights', { userId: 'nil', rights: [empty] });
      expect(expectError(grant, 400, 'INVALID_ARGUMENT').cause).toContain(unknownKind);
      const revoke = await t.patch('/v2/users/nil/rights', { userId: 'nil', rights: [empty] });
      expect(expectError(revoke, 400, 'INVALID_ARGUMENT').cause).toContain(unknownKind);
    }
  });

  it('requires the value of every other variant, and a party only in the party kinds', async () => {
    for (const kind of ['ParticipantAdmin', 'CanReadAsAnyParty', 'IdentityProviderAdmin']) {
      expectDecodeFailure(
        await t.post('/v2/users/x/rights', { userId: 'x', rights: [{ kind: { [kind]: {} } }] }),
        `Invalid value for: body (Missing required field at 'rights[0].kind.${kind}.value')`,
      );
    }
    await createUser('vic');
    // The proto default: an absent party is "", which the party validation then refuses.
    const noParty = await t.post('/v2/users/vic/rights', {
      userId: 'vic',
      rights: [{ kind: { CanReadAs: { value: {} } } }],
    });
    expectError(noParty, 400, 'INVALID_ARGUMENT');
    // A party given to a kind without one is ignored, as unknown JSON keys are.
    const extra = await t.post('/v2/users/vic/rights', {
      userId: 'vic',
      rights: [{ kind: { CanReadAsAnyParty: { value: { party: 'p' } } } }],
    });
    expect(extra.json).toEqual({ newlyGrantedRights: [plainRight('CanReadAsAnyParty')] });
  });

  it('answers USER_NOT_FOUND and requires the body user id', async () => {
    const unknown = await t.post('/v2/users/nope/rights', {
      userId: 'nope',
      rights: [canActAs('p')],
    });
    expect(expectError(unknown, 404, 'USER_NOT_FOUND').cause).toBe(
      'grant user rights failed for unknown user "nope"',
    );
    await createUser('max');
    const missing = await t.post('/v2/users/max/rights', { rights: [canActAs('p')] });
    expect(expectError(missing, 400, 'INVALID_ARGUMENT').cause).toContain(
      'max does not match user in body: Some() ',
    );
    expectError(await t.get('/v2/users/nope/rights'), 404, 'USER_NOT_FOUND');
  });
});

describe('GET /v2/authenticated-user without auth', () => {
  it('answers INVALID_TOKEN, as a participant with wildcard auth does', async () => {
    const error = expectError(await t.get('/v2/authenticated-user'), 400, 'INVALID_TOKEN');
    expect(error.cause).toContain(
      'requests with an empty user-id are only supported if there is an authenticated user',
    );
  });
});
