import { mutationOptions, queryOptions } from '@tanstack/react-query';
import { env } from '@/env';
import {
  activityMeta,
  NOTHING,
  registerActivitySpecs,
  valueOf,
} from '@/lib/activity/activity-spec';
import { networkError, toApiError } from '@/lib/errors/api-error';
import type { LedgerApiRequest } from '@/lib/text/copy-as';
import { readAccessToken } from './access-token';
import { api, unwrap } from './client';
import type { DarContents } from './daml-lf-decoder';
import { packageQueries } from './packages';

/*
 * DARs: the upload (`POST /v2/dars`), its dry run (`/v2/dars/validate`), and a DAR file read in
 * the browser before it goes. The packages a DAR brings are then the packages' (packages.ts).
 */

/** The Daml-LF decoder's client, loaded by the first DAR file read in the browser. */
const decoder = () => import('./daml-lf-decoder');

/** The DAR's bytes and where they go; `synchronizerId` `''` lets the participant choose. */
export type DarTarget = { bytes: ArrayBuffer; synchronizerId: string };

export type UploadProgress = { loaded: number; total: number };

export type UploadDarRequest = DarTarget & {
  /** Vet every package of the DAR right away (the API's default). */
  vetAllPackages: boolean;
  onProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
};

// ── request builders: pure, shared by the calls below and by "Copy as…" ─────────

/** What an upload sends beside the DAR's bytes. */
export type DarUploadOptions = Pick<UploadDarRequest, 'synchronizerId' | 'vetAllPackages'>;

/** The upload's path and query: `/v2/dars?vetAllPackages=…[&synchronizerId=…]`. */
export function darUploadPath({ synchronizerId, vetAllPackages }: DarUploadOptions): string {
  const query = new URLSearchParams({ vetAllPackages: String(vetAllPackages) });
  if (synchronizerId) query.set('synchronizerId', synchronizerId);
  return `/v2/dars?${query.toString()}`;
}

/** The upload as a request with a file body (the DAR the user picked, by its file name). */
export function darUploadRequest(options: DarUploadOptions, fileName: string): LedgerApiRequest {
  return {
    method: 'POST',
    path: darUploadPath(options),
    file: { name: fileName, contentType: 'application/octet-stream' },
  };
}

// ── requests ───────────────────────────────────────────────────────────────────

const octetStream = {
  // The DAR goes as it is: the generated type calls the binary body a string.
  bodySerializer: (body: unknown) => body as BodyInit,
  headers: { 'Content-Type': 'application/octet-stream' },
};

/** Runs the upload checks on the participant without storing or vetting anything. */
export async function validateDar({ bytes, synchronizerId }: DarTarget): Promise<void> {
  unwrap(
    await api.POST('/v2/dars/validate', {
      params: { query: synchronizerId ? { synchronizerId } : {} },
      body: bytes as unknown as string,
      ...octetStream,
      // 200 comes with an empty body.
      parseAs: 'text',
    }),
  );
}

/**
 * Uploads a DAR, reporting the bytes sent. Through XMLHttpRequest, not fetch: fetch cannot report
 * upload progress. Failures are ApiErrors like every other call's; a cancel (via `signal`)
 * rejects with an `AbortError` DOMException.
 */
export function uploadDar({
  bytes,
  synchronizerId,
  vetAllPackages,
  onProgress,
  signal,
}: UploadDarRequest): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortError());
      return;
    }
    const request = new XMLHttpRequest();
    request.open('POST', `${env.API_BASE_URL}${darUploadPath({ synchronizerId, vetAllPackages })}`);
    request.setRequestHeader('Content-Type', 'application/octet-stream');
    const token = readAccessToken();
    if (token) request.setRequestHeader('Authorization', `Bearer ${token}`);
    request.responseType = 'text';

    const onAbort = () => {
      request.abort();
    };
    const settle = () => {
      signal?.removeEventListener('abort', onAbort);
    };
    request.upload.addEventListener('progress', (event) => {
      onProgress?.({
        loaded: event.loaded,
        total: event.lengthComputable ? event.total : bytes.byteLength,
      });
    });
    request.addEventListener('load', () => {
      settle();
      if (request.status >= 200 && request.status < 300) {
        resolve();
        return;
      }
      reject(toApiError(request.status, parseBody(request)));
    });
    request.addEventListener('error', () => {
      settle();
      reject(networkError(new Error('the upload was interrupted')));
    });
    request.addEventListener('abort', () => {
      settle();
      reject(abortError());
    });
    signal?.addEventListener('abort', onAbort);
    request.send(bytes);
  });
}

function parseBody(request: XMLHttpRequest): unknown {
  const text = request.responseText;
  if ((request.getResponseHeader('Content-Type') ?? '').includes('json')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

function abortError(): DOMException {
  return new DOMException('The upload was cancelled', 'AbortError');
}

/** True for the rejection of a request the user cancelled. */
export function isAbortError(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

// ── cache ──────────────────────────────────────────────────────────────────────

export const darQueries = {
  /**
   * A DAR file the user chose, read in the browser for a preview. `selection` tells two choices
   * apart (a file is no query key); the answer is dropped as soon as nothing shows it.
   */
  darFile: (file: Blob & { readonly name: string }, selection: number) =>
    queryOptions<DarContents>({
      queryKey: [...packageQueries.all(), 'dar-file', selection, file.name, file.size],
      queryFn: async () => {
        const [{ readDarContents }, bytes] = await Promise.all([decoder(), file.arrayBuffer()]);
        return readDarContents(bytes);
      },
      staleTime: Infinity,
      gcTime: 0,
      meta: { errorDisplay: 'inline' },
    }),
};

// What the activity log records of an upload: the request without its bytes; the participant's
// answer to an upload is empty, so which packages it held is not known here.
const uploadActivity = activityMeta<UploadDarRequest, undefined>({
  action: 'dar.upload',
  call: (options) => ({ method: 'POST', path: darUploadPath(options) }),
  subjects: () => [],
  before: () => NOTHING,
  after: ({ bytes, vetAllPackages, synchronizerId }) =>
    valueOf({ darBytes: bytes.byteLength, vetAllPackages, synchronizerId }),
});

export const darMutations = {
  // The page shows the participant's verdict in place, code and correlation id included.
  validate: () => mutationOptions({ mutationFn: validateDar, meta: { errorDisplay: 'inline' } }),
  upload: () =>
    mutationOptions({
      mutationKey: [...packageQueries.all(), 'upload'],
      mutationFn: uploadDar,
      meta: {
        errorDisplay: 'inline',
        invalidates: [packageQueries.state()],
        activity: uploadActivity,
      },
    }),
};

// The activity recorder finds these specs by mutation key (lib/activity/activity-spec.ts).
registerActivitySpecs(darMutations);
