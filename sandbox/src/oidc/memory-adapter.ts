import type { Adapter, AdapterPayload } from 'oidc-provider';

type Entry = { payload: AdapterPayload; expiresAt: number };

/**
 * oidc-provider's storage, in memory and per issuer. The package's own memory adapter is one
 * process-wide LRU of 1000 entries shared by every provider (so a long e2e run could evict a live
 * grant) and warns that it is for quick starts; the sandbox wants exactly "in memory, gone on
 * restart", for each issuer on its own.
 */
export function createMemoryStorage(): { adapter: (model: string) => Adapter; close(): void } {
  const entries = new Map<string, Entry>();
  /** Secondary indexes to entry keys: session uid, user code, and the keys of a grant. */
  const byUid = new Map<string, string>();
  const byUserCode = new Map<string, string>();
  const byGrant = new Map<string, Set<string>>();

  const live = (key: string): AdapterPayload | undefined => {
    const entry = entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= Date.now()) {
      entries.delete(key);
      return undefined;
    }
    return entry.payload;
  };

  // Expired entries are dropped when read; this sweep keeps unread ones from piling up.
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [key, entry] of entries) if (entry.expiresAt <= now) entries.delete(key);
    for (const index of [byUid, byUserCode]) {
      for (const [value, key] of index) if (!entries.has(key)) index.delete(value);
    }
    for (const [grantId, members] of byGrant) {
      for (const key of members) if (!entries.has(key)) members.delete(key);
      if (members.size === 0) byGrant.delete(grantId);
    }
  }, 60_000);
  sweep.unref();

  const adapter = (model: string): Adapter => {
    const keyFor = (id: string) => `${model}:${id}`;
    return {
      upsert(id, payload, expiresIn) {
        const key = keyFor(id);
        const expiresAt =
          typeof expiresIn === 'number' ? Date.now() + expiresIn * 1000 : Number.POSITIVE_INFINITY;
        entries.set(key, { payload, expiresAt });
        if (payload.uid) byUid.set(payload.uid, key);
        if (payload.userCode) byUserCode.set(payload.userCode, key);
        if (payload.grantId) {
          const members = byGrant.get(payload.grantId) ?? new Set<string>();
          members.add(key);
          byGrant.set(payload.grantId, members);
        }
        return Promise.resolve();
      },
      find: (id) => Promise.resolve(live(keyFor(id))),
      findByUid(uid) {
        const key = byUid.get(uid);
        return Promise.resolve(key === undefined ? undefined : live(key));
      },
      findByUserCode(userCode) {
        const key = byUserCode.get(userCode);
        return Promise.resolve(key === undefined ? undefined : live(key));
      },
      consume(id) {
        const payload = live(keyFor(id));
        if (payload) payload.consumed = Math.floor(Date.now() / 1000);
        return Promise.resolve();
      },
      destroy(id) {
        const key = keyFor(id);
        const payload = entries.get(key)?.payload;
        entries.delete(key);
        if (payload?.uid) byUid.delete(payload.uid);
        if (payload?.userCode) byUserCode.delete(payload.userCode);
        return Promise.resolve();
      },
      revokeByGrantId(grantId) {
        for (const key of byGrant.get(grantId) ?? []) entries.delete(key);
        byGrant.delete(grantId);
        return Promise.resolve();
      },
    };
  };
  return {
    adapter,
    close: () => {
      clearInterval(sweep);
    },
  };
}
