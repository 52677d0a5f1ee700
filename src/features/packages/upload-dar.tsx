import { Alert, Button, Group, Progress, Select, Stack, Switch, Text } from '@mantine/core';
import { useIsMutating, useMutation, useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { startTransition, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import {
  isAbortError,
  packageMutations,
  packageQueries,
  type UploadProgress,
} from '@/api/packages';
import { sessionQueries } from '@/api/session';
import { synchronizerQueries, type ConnectedSynchronizer } from '@/api/synchronizers';
import { ErrorAlert } from '@/components/feedback/error-alert';
import { SectionCard } from '@/components/section-card';
import { accessOf } from '@/lib/access-rights';
import { describeError } from '@/lib/api-error';
import { DarDropZone } from './dar-drop-zone';
import { DarPreview } from './dar-preview';
import { UPLOAD_NEEDS_ADMIN } from './packages-header-actions';

export type UploadDarLinks = {
  package: (packageId: string) => string;
  packages: string;
};

export type UploadDarProps = { links: UploadDarLinks };

// Unique across visits of the page, so a preview is never taken for another file's.
let lastSelection = 0;

type Chosen = { file: File; selection: number };

/**
 * Upload a DAR: pick or drop it, see what it holds (read in the browser), optionally have the
 * participant validate it, then upload it with progress. The local reading and the participant's
 * verdict are independent: a DAR the browser cannot read can still be sent, to see what the
 * participant says.
 */
export function UploadDar({ links }: UploadDarProps) {
  const { data: caller } = useSuspenseQuery(sessionQueries.caller());
  // Loaded with the page, so choosing a file never waits for it.
  const { data: synchronizers } = useSuspenseQuery(synchronizerQueries.connected());
  const isAdmin = accessOf(caller).isParticipantAdmin;
  const [chosen, setChosen] = useState<Chosen>();
  const isUploading = useIsMutating({ mutationKey: packageMutations.upload().mutationKey }) > 0;

  return (
    <Stack gap="lg">
      {!isAdmin && (
        <Alert color="blue" variant="light" title="Uploading needs a participant administrator">
          {UPLOAD_NEEDS_ADMIN} You can still look inside a DAR here: it is read in your browser and
          sent nowhere.
        </Alert>
      )}
      <DarDropZone
        fileName={chosen?.file.name}
        isDisabled={isUploading}
        onFile={(file) => {
          lastSelection += 1;
          const next = { file, selection: lastSelection };
          // A transition renders the preview and the controls in slices that yield to the
          // browser, instead of in one task right in the change event.
          startTransition(() => {
            setChosen(next);
          });
        }}
      />
      {chosen && <DarPreview file={chosen.file} selection={chosen.selection} />}
      {chosen && isAdmin && (
        <UploadControls
          key={chosen.selection}
          file={chosen.file}
          selection={chosen.selection}
          synchronizers={synchronizers}
          links={links}
        />
      )}
    </Stack>
  );
}

type UploadControlsProps = Chosen & {
  synchronizers: readonly ConnectedSynchronizer[];
  links: UploadDarLinks;
};

function UploadControls({ file, selection, synchronizers, links }: UploadControlsProps) {
  // Only the main package's name: the controls need not re-render with the whole preview.
  const { data: main } = useQuery({
    ...packageQueries.darFile(file, selection),
    select: (contents) => contents.main,
  });
  const [vetAllPackages, setVetAllPackages] = useState(true);
  // With several synchronizers the participant cannot pick one itself: the first is proposed.
  const [synchronizerId, setSynchronizerId] = useState(
    synchronizers.length > 1 ? (synchronizers[0]?.synchronizerId ?? '') : '',
  );
  const [progress, setProgress] = useState<UploadProgress>();
  // The file could not be read (moved, deleted or changed since it was chosen): nothing was sent.
  const [readError, setReadError] = useState<{ error: unknown }>();
  const [isReading, setIsReading] = useState(false);
  const abort = useRef<AbortController>(undefined);
  const validate = useMutation(packageMutations.validate());
  const upload = useMutation(packageMutations.upload());
  const isBusy = isReading || validate.isPending || upload.isPending;
  const darName = main ? `${main.name} ${main.version}` : file.name;

  // Leaving the page (or choosing another file) cancels an upload that is still running: nothing
  // would be left to show its progress or offer to cancel it, and the drop zone would stay
  // disabled until it ended.
  useEffect(
    () => () => {
      abort.current?.abort();
    },
    [],
  );

  /** The file's bytes, or undefined (with the reason shown) when the browser cannot read it. */
  const readFile = async (): Promise<ArrayBuffer | undefined> => {
    setReadError(undefined);
    setIsReading(true);
    try {
      return await file.arrayBuffer();
    } catch (error) {
      setReadError({ error });
      return undefined;
    } finally {
      setIsReading(false);
    }
  };

  const handleValidate = async () => {
    upload.reset();
    validate.reset();
    const bytes = await readFile();
    if (bytes) validate.mutate({ bytes, synchronizerId });
  };

  const handleUpload = async () => {
    validate.reset();
    upload.reset();
    const controller = new AbortController();
    abort.current = controller;
    const bytes = await readFile();
    // Unreadable, or the page was left while reading: send nothing.
    if (!bytes || controller.signal.aborted) return;
    setProgress({ loaded: 0, total: bytes.byteLength });
    // The outcome shows in place below, where the user is looking: no toast.
    upload.mutate({
      bytes,
      synchronizerId,
      vetAllPackages,
      onProgress: setProgress,
      signal: controller.signal,
    });
  };

  return (
    <SectionCard title="Validate and upload">
      <Stack gap="md">
        <Switch
          label="Vet all packages"
          description="Vet every package of the DAR right away, so that transactions can use them."
          checked={vetAllPackages}
          disabled={isBusy}
          onChange={(event) => {
            setVetAllPackages(event.currentTarget.checked);
          }}
        />
        {synchronizers.length > 1 && (
          <Select
            label="Synchronizer"
            description="Where validation runs, and where the packages are vetted"
            data={synchronizers.map((synchronizer) => ({
              value: synchronizer.synchronizerId,
              label: synchronizer.synchronizerAlias || synchronizer.synchronizerId,
            }))}
            value={synchronizerId}
            onChange={(value) => {
              if (value === null) return;
              setSynchronizerId(value);
              // A verdict for one synchronizer says nothing about another.
              validate.reset();
            }}
            allowDeselect={false}
            disabled={isBusy}
            maw={360}
          />
        )}
        <Text size="sm" c="dimmed">
          Optional: validate first. The participant runs the upload checks (including upgrade
          compatibility with the packages it has vetted) without storing or vetting anything.
        </Text>
        <Group gap="sm">
          <Button
            variant="default"
            loading={validate.isPending}
            disabled={isBusy && !validate.isPending}
            onClick={() => void handleValidate()}
          >
            Validate
          </Button>
          <Button
            loading={upload.isPending}
            disabled={isBusy && !upload.isPending}
            onClick={() => void handleUpload()}
          >
            Upload
          </Button>
        </Group>

        {readError && (
          <Alert color="red" variant="light" title={`Could not read ${file.name}`}>
            <Stack gap={4}>
              <Text size="sm">
                The browser could not read the file, so nothing was sent. It may have been moved,
                deleted or changed since it was chosen: choose it again.
              </Text>
              <Text size="xs" c="dimmed">
                {describeError(readError.error).message}
              </Text>
            </Stack>
          </Alert>
        )}
        {validate.isSuccess && (
          <Alert color="teal" variant="light" title="Valid">
            The participant would accept {darName}. Nothing has been stored or vetted yet.
          </Alert>
        )}
        {validate.isError && (
          <Stack gap={4}>
            <Text size="sm" fw={600}>
              The participant rejects {darName}:
            </Text>
            <ErrorAlert error={validate.error} />
          </Stack>
        )}

        {upload.isPending && progress && (
          <UploadProgressView
            progress={progress}
            onCancel={() => {
              abort.current?.abort();
            }}
          />
        )}
        {upload.isSuccess && (
          <Alert color="teal" variant="light" title="Uploaded">
            <Stack gap="xs" align="flex-start">
              <Text size="sm">
                {darName} is stored on the participant
                {vetAllPackages ? ' and its packages are vetted' : ', not vetted'}.
              </Text>
              <Button
                component={Link}
                to={main ? links.package(main.packageId) : links.packages}
                size="xs"
                variant="light"
              >
                {main ? `Open ${darName}` : 'Go to the packages'}
              </Button>
            </Stack>
          </Alert>
        )}
        {upload.isError &&
          (isAbortError(upload.error) ? (
            <Alert color="gray" variant="light" title="Upload cancelled">
              The upload was stopped. If the participant had already received the whole file, it may
              still have stored it: check the packages list.
            </Alert>
          ) : (
            <Stack gap={4}>
              <Text size="sm" fw={600}>
                The participant rejected {darName}:
              </Text>
              <ErrorAlert error={upload.error} />
            </Stack>
          ))}
      </Stack>
    </SectionCard>
  );
}

const kilobytes = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;

function UploadProgressView({
  progress,
  onCancel,
}: {
  progress: UploadProgress;
  onCancel: () => void;
}) {
  const { loaded, total } = progress;
  const percent = total > 0 ? Math.round((loaded / total) * 100) : 0;
  const isSent = total > 0 && loaded >= total;
  return (
    <Stack gap={6}>
      <Progress value={percent} aria-label="Upload progress" />
      <Group gap="sm">
        <Text size="sm" role="status">
          {isSent
            ? `Sent all ${kilobytes(total)}; the participant is checking the DAR…`
            : `Sent ${kilobytes(loaded)} of ${kilobytes(total)} (${String(percent)}%)`}
        </Text>
        <Button size="xs" variant="light" color="red" onClick={onCancel}>
          Cancel upload
        </Button>
      </Group>
    </Stack>
  );
}
