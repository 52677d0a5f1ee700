import { Alert, Button, Group, Progress, Select, Stack, Switch, Text } from '@mantine/core';
import { useIsMutating, useMutation, useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { startTransition, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { isAbortError, type UploadProgress, darQueries, darMutations } from '@/api/dars';
import { sessionQueries } from '@/api/session';
import { synchronizerQueries, type ConnectedSynchronizer } from '@/api/synchronizers';
import { CopyAsMenu } from '@/components/copy-as-menu';
import { ErrorAlert } from '@/components/feedback/error-alert';
import { FIELD_WIDTH } from '@/components/form/field-widths';
import { FormActions } from '@/components/form/form-actions';
import { IsolatedText } from '@/components/isolated-text';
import { SectionCard } from '@/components/section-card';
import { accessOf } from '@/lib/access/access-rights';
import { describeError } from '@/lib/errors/api-error';
import { DarDropZone } from './dar-drop-zone';
import { DarPreview } from './dar-preview';
import { UpgradeReadiness } from './upgrade-readiness';
import { darUploadCopyAs } from './package-copy-as';
import { UPLOAD_NEEDS_ADMIN } from './packages-header-actions';
import { packagesListSearch } from './packages-list-search';
import { buttonBusy } from '@/components/form/button-busy';

export type UploadDarLinks = {
  package: (packageId: string) => string;
  packages: string;
};

export type UploadDarProps = { links: UploadDarLinks };

// Unique across visits of the page, so a preview is never taken for another file's.
let lastSelection = 0;

type Chosen = { file: File; selection: number };

/** What the participant stored: shown at the top of the page, where the user then is. */
type Uploaded = {
  darName: string;
  /** Unknown when the browser could not read the DAR. */
  mainPackageId: string | undefined;
  vetAllPackages: boolean;
};

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
  const [uploaded, setUploaded] = useState<Uploaded>();
  const isUploading = useIsMutating({ mutationKey: darMutations.upload().mutationKey }) > 0;

  return (
    <Stack gap="lg">
      {uploaded && <UploadedNotice uploaded={uploaded} links={links} />}
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
            setUploaded(undefined);
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
          onUploaded={setUploaded}
        />
      )}
    </Stack>
  );
}

type UploadControlsProps = Chosen & {
  synchronizers: readonly ConnectedSynchronizer[];
  links: UploadDarLinks;
  onUploaded: (uploaded: Uploaded) => void;
};

function UploadControls({
  file,
  selection,
  synchronizers,
  links,
  onUploaded,
}: UploadControlsProps) {
  // Only the main package's name: the controls need not re-render with the whole preview.
  const { data: main } = useQuery({
    ...darQueries.darFile(file, selection),
    select: (contents) => contents.main,
  });
  const { data: darPackages } = useQuery({
    ...darQueries.darFile(file, selection),
    select: (contents) => contents.packages,
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
  const validate = useMutation(darMutations.validate());
  const upload = useMutation(darMutations.upload());
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
    // A failure shows in place below, next to the controls; the success at the top of the page.
    upload.mutate(
      { bytes, synchronizerId, vetAllPackages, onProgress: setProgress, signal: controller.signal },
      {
        onSuccess: () => {
          onUploaded({ darName, mainPackageId: main?.packageId, vetAllPackages });
        },
      },
    );
  };

  return (
    <SectionCard title="Validate and upload">
      <Stack
        component="form"
        gap="md"
        onSubmit={(event) => {
          event.preventDefault();
          void handleUpload();
        }}
      >
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
            maw={FIELD_WIDTH.medium}
          />
        )}
        <Text size="sm" c="dimmed">
          Optional: validate first. The participant runs the upload checks (including upgrade
          compatibility with the packages it has vetted) without storing or vetting anything.
        </Text>
        <FormActions
          submitLabel="Upload"
          isSubmitting={upload.isPending}
          isSubmitDisabled={isBusy && !upload.isPending}
          // Leaving the page cancels an upload that is still running (see the effect above).
          cancel={{ to: links.packages }}
          extra={
            <Group gap="sm" wrap="wrap">
              <Button
                variant="default"
                loading={buttonBusy(validate.isPending)}
                disabled={isBusy && !validate.isPending}
                onClick={() => void handleValidate()}
              >
                Validate
              </Button>
              <CopyAsMenu
                commands={() => darUploadCopyAs({ synchronizerId, vetAllPackages }, file.name)}
              />
            </Group>
          }
        />

        {readError && (
          <Alert
            color="red"
            variant="light"
            title={
              <>
                Could not read <IsolatedText isIdentifier>{file.name}</IsolatedText>
              </>
            }
          >
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
            The participant would accept <IsolatedText isIdentifier>{darName}</IsolatedText>.
            Nothing has been stored or vetted yet.
          </Alert>
        )}
        {validate.isError && (
          <Stack gap={4}>
            <Text size="sm" fw={600}>
              The participant rejects <IsolatedText isIdentifier>{darName}</IsolatedText>:
            </Text>
            <ErrorAlert error={validate.error} />
          </Stack>
        )}

        {main && darPackages && (
          <UpgradeReadiness
            main={main}
            packages={darPackages}
            synchronizerId={synchronizerId}
            vetAllPackages={vetAllPackages}
          />
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
          <Text size="sm" c="dimmed">
            Uploaded: see the top of the page.
          </Text>
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
                The participant rejected <IsolatedText isIdentifier>{darName}</IsolatedText>:
              </Text>
              <ErrorAlert error={upload.error} />
            </Stack>
          ))}
      </Stack>
    </SectionCard>
  );
}

/**
 * The upload's success, at the top of the page and focused when it appears: the user clicked
 * Upload at the bottom of a long preview, and a message down there would go unseen.
 */
function UploadedNotice({ uploaded, links }: { uploaded: Uploaded; links: UploadDarLinks }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, [uploaded]);
  const { darName, mainPackageId, vetAllPackages } = uploaded;
  return (
    <Alert ref={ref} tabIndex={-1} color="teal" variant="light" title="Uploaded">
      <Stack gap="xs" align="flex-start">
        <Text size="sm">
          <IsolatedText isIdentifier>{darName}</IsolatedText> is stored on the participant
          {vetAllPackages ? ' and its packages are vetted' : ', not vetted'}.
        </Text>
        <Group gap="xs" wrap="wrap">
          {mainPackageId !== undefined && (
            <Button component={Link} to={links.package(mainPackageId)} size="xs" variant="light">
              Open <IsolatedText isIdentifier>{darName}</IsolatedText>
            </Button>
          )}
          <Button
            component={Link}
            to={
              mainPackageId === undefined
                ? links.packages
                : `${links.packages}${packagesListSearch({ uploaded: mainPackageId })}`
            }
            size="xs"
            variant={mainPackageId === undefined ? 'light' : 'default'}
          >
            {mainPackageId === undefined ? 'Go to the packages' : 'See it in the packages list'}
          </Button>
        </Group>
      </Stack>
    </Alert>
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
