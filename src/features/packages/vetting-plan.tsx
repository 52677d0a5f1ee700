import {
  Alert,
  Anchor,
  Badge,
  Button,
  Code,
  FileButton,
  Group,
  List,
  Select,
  Stack,
  Table,
  TagsInput,
  Text,
  Title,
} from '@mantine/core';
import { useMutation, useQueries, useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { packageQueries } from '@/api/packages';
import {
  type PlannedVettingChange,
  type VettedPackage,
  type VettingPlan,
  type VettingUpdateResponse,
  vettingQueries,
  vettingMutations,
} from '@/api/package-vetting';
import { darQueries } from '@/api/dars';
import { sessionQueries } from '@/api/session';
import { synchronizerQueries } from '@/api/synchronizers';
import { readScopeOf } from '@/api/updates';
import { ErrorAlert } from '@/components/feedback/error-alert';
import { SectionCard } from '@/components/section-card';
import { accessOf } from '@/lib/access/access-rights';
import { describeError } from '@/lib/errors/api-error';
import { shortenIdentifier } from '@/lib/text/format';
import { useSynchronizerLabel } from '@/hooks/use-synchronizer-label';
import { PreferenceReadiness, type PreferenceRow } from './preference-readiness';
import { usePackageUsage, type UsageResult } from './use-package-usage';
import {
  buildVerdicts,
  forceOfferFor,
  inversePlan,
  MAX_PLAN_PARTIES,
  packageLabelText,
  planSearch,
  plainRefusal,
  plannedSynchronizer,
  readPlanSearch,
  simulatePlan,
  type ContractCount,
  type PackageLabel,
  type PackageVerdict,
} from './vetting-plan-model';
import { buttonBusy } from '@/components/form/button-busy';

export type VettingPlanLinks = {
  /** The planner with another plan (the inverse plan, a re-plan). */
  plan: (search: string) => string;
  package: (packageId: string) => string;
  /** The active contracts page for one template (`<package-id>:<Module>:<Entity>`). */
  contracts: (templateId: string) => string;
};

export type VettingPlannerProps = {
  /** The plan, as the URL holds it (vetting-plan-model.ts). */
  search: string;
  onSearchChange: (search: string) => void;
  links: VettingPlanLinks;
};

/** What the last Apply did: the plan it sent and the participant's answer. */
type Applied = { search: string; plan: VettingPlan; response: VettingUpdateResponse };

/**
 * Plan a vetting change: packages to vet or unvet on a synchronizer. The participant dry-runs the
 * plan before anything changes; each package gets a verdict (its active contracts, the packages
 * that depend on it, which version parties would be given), refusals come in plain words with
 * only the force flag they need, and Apply sends the serial the dry run saw.
 */
export function VettingPlanner({ search, onSearchChange, links }: VettingPlannerProps) {
  const { data: caller } = useSuspenseQuery(sessionQueries.caller());
  const { data: connected } = useSuspenseQuery(synchronizerQueries.connected());
  const { data: vetting } = useSuspenseQuery(vettingQueries.vetting());
  const { data: storedIds } = useSuspenseQuery(packageQueries.ids());
  const synchronizerLabel = useSynchronizerLabel();
  const [applied, setApplied] = useState<Applied | undefined>();

  const read = useMemo(() => readPlanSearch(new URLSearchParams(search)), [search]);
  const synchronizerId = plannedSynchronizer(read.plan.synchronizerId, connected);
  const plan: VettingPlan = useMemo(
    () => ({ ...read.plan, synchronizerId }),
    [read.plan, synchronizerId],
  );
  const update = (next: Partial<VettingPlan>, parties = read.parties) => {
    onSearchChange(planSearch({ plan: { ...plan, ...next }, parties }));
  };

  const current = vetting.find((entry) => entry.synchronizerId === synchronizerId);
  const labels = useLabels(
    vetting.flatMap((entry) => entry.packages),
    plan.changes.map((change) => change.packageId),
  );

  const canPlan = plan.changes.length > 0 && synchronizerId !== '';
  const dryRun = useQuery({ ...vettingQueries.vettingDryRun(plan), enabled: canPlan });
  const apply = useMutation(vettingMutations.applyVettingPlan());

  const before: readonly VettedPackage[] =
    dryRun.data?.pastVettedPackages?.packages ?? current?.packages ?? [];
  const after: readonly VettedPackage[] =
    dryRun.data?.newVettedPackages.packages ?? simulatePlan(before, plan, labels);

  const dependencies = useDependencies([
    ...new Set([
      ...before.map((entry) => entry.packageId),
      ...after.map((entry) => entry.packageId),
      ...plan.changes.map((change) => change.packageId),
    ]),
  ]);
  const usage = usePackageUsage(
    plan.changes.map((change) => change.packageId),
    readScopeOf(caller),
  );
  const counts = new Map<string, ContractCount>();
  for (const [packageId, result] of usage) if (result.data) counts.set(packageId, result.data);

  const verdicts = buildVerdicts({ plan, before, after, labels, dependencies, contracts: counts });

  const stakeholders = [...usage.values()].flatMap((result) => result.data?.stakeholders ?? []);
  const parties = [...new Set([...read.parties, ...stakeholders])].slice(0, MAX_PLAN_PARTIES);
  const names = [
    ...new Set(
      plan.changes
        .map((change) => labels.get(change.packageId)?.name)
        .filter((name): name is string => !!name),
    ),
  ];
  const preferenceRows: PreferenceRow[] = parties.flatMap((party) =>
    names.map((packageName) => ({ party, packageName })),
  );

  const isAdmin = accessOf(caller).isParticipantAdmin;
  const refusal = dryRun.error ? describeError(dryRun.error) : undefined;
  const offer = forceOfferFor(refusal?.code);
  const applyRefusal = apply.error ? describeError(apply.error) : undefined;
  const isConcurrent = applyRefusal?.code === 'TOPOLOGY_SERIAL_MISMATCH';
  const expectedSerial = dryRun.data
    ? (dryRun.data.pastVettedPackages?.topologySerial ?? null)
    : undefined;

  const stored = storedIds.map((packageId) => ({
    value: packageId,
    label: `${packageLabelText(packageId, labels.get(packageId))} (${shortenIdentifier(packageId)})`,
  }));

  return (
    <Stack gap="lg">
      {read.problems.length > 0 && (
        <Alert color="orange" variant="light" title="Part of the plan's link was left out">
          <List size="sm">
            {read.problems.map((problem) => (
              <List.Item key={problem}>{problem}</List.Item>
            ))}
          </List>
        </Alert>
      )}
      {applied?.search === search && (
        <AppliedResult
          applied={applied}
          links={links}
          synchronizerLabel={synchronizerLabel(applied.plan.synchronizerId)}
          labels={labels}
        />
      )}
      <SectionCard title="Plan">
        <Stack gap="md">
          <Select
            label="Synchronizer"
            description="Vetting is per synchronizer: the change applies to this participant's vetting there."
            data={connected.map((synchronizer) => ({
              value: synchronizer.synchronizerId,
              label: `${synchronizer.synchronizerAlias} (${shortenIdentifier(synchronizer.synchronizerId)})`,
            }))}
            value={synchronizerId || null}
            onChange={(value) => {
              update({ synchronizerId: value ?? '' });
            }}
            allowDeselect={false}
            maw={480}
          />
          <PlanChanges
            changes={plan.changes}
            labels={labels}
            vetted={new Set((current?.packages ?? []).map((entry) => entry.packageId))}
            stored={stored}
            links={links}
            onChange={(changes) => {
              update({ changes });
            }}
          />
          <TagsInput
            label="Parties to check"
            description="Which package version these parties would be given, before and after. The stakeholders of the affected contracts are checked too."
            placeholder="Party id"
            value={read.parties}
            maxTags={MAX_PLAN_PARTIES}
            onChange={(value) => {
              update({}, value);
            }}
            maw={640}
          />
        </Stack>
      </SectionCard>

      {canPlan && (
        <SectionCard title="Dry run">
          <Stack gap="sm">
            {dryRun.isPending && <Text size="sm">Asking the participant to dry-run the plan…</Text>}
            {dryRun.data && (
              <Text size="sm" role="status">
                The participant accepts this plan. Vetting serial now{' '}
                {dryRun.data.pastVettedPackages?.topologySerial ?? 'none'}
                {'; '}
                {dryRun.data.newVettedPackages.topologySerial ===
                dryRun.data.pastVettedPackages?.topologySerial
                  ? 'the plan changes nothing.'
                  : `applying it makes serial ${String(dryRun.data.newVettedPackages.topologySerial)}.`}
              </Text>
            )}
            {refusal && (
              <Stack gap="xs">
                <Alert color="red" variant="light" title="The participant refuses this plan">
                  <Text size="sm">
                    {plainRefusal(refusal.code) ??
                      'The dry run failed; the participant says why below.'}
                  </Text>
                </Alert>
                <ErrorAlert error={dryRun.error} />
                {offer && !plan.forceFlags.includes(offer.flag) && (
                  <Alert color="orange" variant="light" title={`Force: ${offer.label}`}>
                    <Stack gap="xs">
                      <Text size="sm">Risk: {offer.risk}</Text>
                      <Group>
                        <Button
                          color="orange"
                          variant="light"
                          onClick={() => {
                            update({ forceFlags: [...plan.forceFlags, offer.flag] });
                          }}
                        >
                          Dry-run again with “{offer.label}”
                        </Button>
                      </Group>
                    </Stack>
                  </Alert>
                )}
              </Stack>
            )}
            {plan.forceFlags.length > 0 && (
              <ForceFlagsInPlan
                flags={plan.forceFlags}
                onRemove={(flag) => {
                  update({ forceFlags: plan.forceFlags.filter((candidate) => candidate !== flag) });
                }}
              />
            )}
          </Stack>
        </SectionCard>
      )}

      {canPlan && (
        <SectionCard title="Verdict per package">
          <Stack gap="md">
            {verdicts.map((verdict) => (
              <Verdict
                key={verdict.change.packageId}
                verdict={verdict}
                usage={usage.get(verdict.change.packageId)}
                links={links}
              />
            ))}
          </Stack>
        </SectionCard>
      )}

      {canPlan && (
        <SectionCard title="Preferred packages">
          <PreferenceReadiness
            rows={preferenceRows}
            synchronizerId={synchronizerId}
            vettingBefore={before}
            vettingAfter={after}
            caption="Which version preferred-packages selects for each party, now and after the change"
            emptyText="No party to check: add parties above, or none have active contracts of these packages."
          />
        </SectionCard>
      )}

      {canPlan && (
        <Stack gap="sm">
          {isConcurrent && (
            <Alert color="orange" variant="light" title="The vetting changed meanwhile">
              <Stack gap="xs">
                <Text size="sm">{plainRefusal('TOPOLOGY_SERIAL_MISMATCH')}</Text>
                <Group>
                  <Button
                    variant="light"
                    onClick={() => {
                      apply.reset();
                      void dryRun.refetch();
                    }}
                  >
                    Re-plan
                  </Button>
                </Group>
              </Stack>
            </Alert>
          )}
          {apply.error && !isConcurrent && <ErrorAlert error={apply.error} />}
          {!isAdmin && (
            <Text size="sm" c="dimmed">
              Only participant administrators can change vetting.
            </Text>
          )}
          <Group>
            <Button
              disabled={!isAdmin || !dryRun.data || expectedSerial === undefined || isConcurrent}
              loading={buttonBusy(apply.isPending)}
              onClick={() => {
                if (expectedSerial === undefined) return;
                apply.mutate(
                  { plan, expectedSerial },
                  {
                    onSuccess: (response) => {
                      setApplied({ search, plan, response });
                    },
                  },
                );
              }}
            >
              Apply vetting change
            </Button>
            {dryRun.data && (
              <Text size="xs" c="dimmed">
                Sent with the vetting serial the dry run saw (
                {expectedSerial === null ? 'none yet' : String(expectedSerial)}): a change made
                elsewhere meanwhile is reported, never overwritten.
              </Text>
            )}
          </Group>
        </Stack>
      )}
    </Stack>
  );
}

/** Names and versions: from the vetting list, else from the archive (a few at a time). */
function useLabels(vetted: readonly VettedPackage[], planned: readonly string[]) {
  const known = new Map<string, PackageLabel>();
  for (const entry of vetted) {
    if (entry.packageName) {
      known.set(entry.packageId, { name: entry.packageName, version: entry.packageVersion ?? '' });
    }
  }
  const missing = planned.filter((packageId) => !known.has(packageId));
  const results = useQueries({
    queries: missing.map((packageId) => packageQueries.nameVersion(packageId)),
  });
  missing.forEach((packageId, i) => {
    const data = results[i]?.data;
    if (data) known.set(packageId, { name: data.name, version: data.version });
  });
  return known;
}

function useDependencies(packageIds: readonly string[]) {
  const results = useQueries({
    queries: packageIds.map((packageId) => packageQueries.dependencies(packageId)),
  });
  const dependencies = new Map<string, readonly string[]>();
  packageIds.forEach((packageId, i) => {
    const data = results[i]?.data;
    if (data) dependencies.set(packageId, data);
  });
  return dependencies;
}

type PlanChangesProps = {
  changes: readonly PlannedVettingChange[];
  labels: ReadonlyMap<string, PackageLabel>;
  vetted: ReadonlySet<string>;
  stored: { value: string; label: string }[];
  links: VettingPlanLinks;
  onChange: (changes: PlannedVettingChange[]) => void;
};

function PlanChanges({ changes, labels, vetted, stored, links, onChange }: PlanChangesProps) {
  const [picked, setPicked] = useState<string | null>(null);
  const planned = new Set(changes.map((change) => change.packageId));
  const pickedIsVetted = picked !== null && vetted.has(picked);
  return (
    <Stack gap="sm">
      {changes.length > 0 ? (
        <Table aria-label="Planned changes" verticalSpacing="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Package</Table.Th>
              <Table.Th scope="col">Change</Table.Th>
              <Table.Th scope="col">Now</Table.Th>
              <Table.Th scope="col">
                <span className="visually-hidden">Remove</span>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {changes.map((change, index) => {
              const text = packageLabelText(change.packageId, labels.get(change.packageId));
              return (
                <Table.Tr key={change.packageId}>
                  <Table.Th scope="row" fw={500}>
                    <Anchor component={Link} to={links.package(change.packageId)} size="sm">
                      {text}
                    </Anchor>
                    <Text size="xs" c="dimmed" ff="monospace">
                      {shortenIdentifier(change.packageId)}
                    </Text>
                  </Table.Th>
                  <Table.Td>
                    <Select
                      aria-label={`Change for ${text}`}
                      data={['Vet', 'Unvet']}
                      value={change.operation}
                      allowDeselect={false}
                      w={120}
                      onChange={(value) => {
                        const next = [...changes];
                        next[index] =
                          value === 'Vet'
                            ? { operation: 'Vet', packageId: change.packageId }
                            : { operation: 'Unvet', packageId: change.packageId };
                        onChange(next);
                      }}
                    />
                  </Table.Td>
                  <Table.Td>
                    <Badge
                      variant="light"
                      color={vetted.has(change.packageId) ? 'teal' : 'gray'}
                      tt="none"
                    >
                      {vetted.has(change.packageId) ? 'Vetted' : 'Not vetted'}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <Button
                      size="xs"
                      variant="subtle"
                      aria-label={`Remove ${text} from the plan`}
                      onClick={() => {
                        onChange(changes.filter((_, i) => i !== index));
                      }}
                    >
                      Remove
                    </Button>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      ) : (
        <Text size="sm" c="dimmed">
          No package in the plan yet: add the packages to vet or unvet.
        </Text>
      )}
      <DarPackagesPicker
        stored={new Set(stored.map((option) => option.value))}
        planned={planned}
        vetted={vetted}
        onAdd={(added) => {
          onChange([...changes, ...added]);
        }}
      />
      <Group align="flex-end">
        <Select
          label="Add a package"
          placeholder="Pick a stored package"
          data={stored.filter((option) => !planned.has(option.value))}
          value={picked}
          onChange={setPicked}
          searchable
          limit={200}
          w={480}
        />
        <Button
          variant="light"
          disabled={picked === null}
          onClick={() => {
            if (picked === null) return;
            onChange([
              ...changes,
              pickedIsVetted
                ? { operation: 'Unvet', packageId: picked }
                : { operation: 'Vet', packageId: picked },
            ]);
            setPicked(null);
          }}
        >
          {picked === null ? 'Add' : pickedIsVetted ? 'Add to unvet' : 'Add to vet'}
        </Button>
      </Group>
    </Stack>
  );
}

/** A DAR's packages, read in the browser, to add to the plan at once (those stored here). */
function DarPackagesPicker({
  stored,
  planned,
  vetted,
  onAdd,
}: {
  stored: ReadonlySet<string>;
  planned: ReadonlySet<string>;
  vetted: ReadonlySet<string>;
  onAdd: (changes: PlannedVettingChange[]) => void;
}) {
  const [chosen, setChosen] = useState<{ file: File; selection: number }>();
  const dar = useQuery({
    ...darQueries.darFile(chosen?.file ?? new File([], ''), chosen?.selection ?? 0),
    enabled: chosen !== undefined,
  });
  const ids = dar.data?.packages.map((pkg) => pkg.packageId) ?? [];
  const addable = ids.filter((packageId) => stored.has(packageId) && !planned.has(packageId));
  const notStored = ids.filter((packageId) => !stored.has(packageId)).length;
  const add = (operation: 'Vet' | 'Unvet') => {
    onAdd(
      addable
        .filter((packageId) =>
          operation === 'Unvet' ? vetted.has(packageId) : !vetted.has(packageId),
        )
        .map((packageId) => ({ operation, packageId })),
    );
    setChosen(undefined);
  };
  return (
    <Stack gap={4}>
      <FileButton
        accept=".dar"
        onChange={(file) => {
          if (file) setChosen((last) => ({ file, selection: (last?.selection ?? 0) + 1 }));
        }}
      >
        {(props) => (
          <Button {...props} variant="default" w="fit-content">
            Add a DAR’s packages…
          </Button>
        )}
      </FileButton>
      {chosen && dar.isPending && <Text size="sm">Reading {chosen.file.name}…</Text>}
      {chosen && dar.error && <ErrorAlert error={dar.error} />}
      {chosen && dar.data && (
        <Group gap="xs">
          <Text size="sm">
            {chosen.file.name}: {addable.length} of its {ids.length} packages can be added
            {notStored > 0 ? ` (${String(notStored)} not stored here: upload the DAR first)` : ''}.
          </Text>
          <Button
            size="xs"
            variant="light"
            disabled={addable.length === 0}
            onClick={() => {
              add('Unvet');
            }}
          >
            Unvet those vetted
          </Button>
          <Button
            size="xs"
            variant="light"
            disabled={addable.length === 0}
            onClick={() => {
              add('Vet');
            }}
          >
            Vet those not vetted
          </Button>
        </Group>
      )}
    </Stack>
  );
}

function ForceFlagsInPlan({
  flags,
  onRemove,
}: {
  flags: readonly string[];
  onRemove: (flag: VettingPlan['forceFlags'][number]) => void;
}) {
  return (
    <Alert color="orange" variant="light" title="Force flags in this plan">
      <Stack gap="xs">
        {flags.map((flag) => {
          const offer = [
            forceOfferFor('TOPOLOGY_DEPENDENCIES_NOT_VETTED'),
            forceOfferFor('NOT_VALID_UPGRADE_PACKAGE'),
          ].find((candidate) => candidate?.flag === flag);
          return (
            <Group key={flag} justify="space-between" wrap="nowrap" align="flex-start">
              <Stack gap={0}>
                <Code>{flag}</Code>
                {offer && <Text size="xs">Risk: {offer.risk}</Text>}
              </Stack>
              <Button
                size="xs"
                variant="subtle"
                onClick={() => {
                  if (offer) onRemove(offer.flag);
                }}
              >
                Remove
              </Button>
            </Group>
          );
        })}
      </Stack>
    </Alert>
  );
}

function Verdict({
  verdict,
  usage,
  links,
}: {
  verdict: PackageVerdict;
  usage: UsageResult | undefined;
  links: VettingPlanLinks;
}) {
  const { change, label } = verdict;
  const text = packageLabelText(change.packageId, label);
  const count = verdict.contracts;
  return (
    <Stack gap={6} component="article" aria-label={`Verdict for ${text}`}>
      <Group gap="xs">
        <Title order={3} size="h5">
          {change.operation} {text}
        </Title>
        {verdict.isNoChange && (
          <Badge color="gray" variant="light" tt="none">
            No change: already {change.operation === 'Vet' ? 'vetted' : 'not vetted'}
          </Badge>
        )}
        {verdict.warnings.length === 0 ? (
          <Badge color="teal" variant="light" tt="none">
            Nothing flagged
          </Badge>
        ) : (
          <Badge color="orange" variant="light" tt="none">
            {verdict.warnings.length === 1
              ? '1 warning'
              : `${String(verdict.warnings.length)} warnings`}
          </Badge>
        )}
      </Group>
      {verdict.warnings.map((warning) => (
        <Alert key={warning} color="orange" variant="light" p="xs">
          <Text size="sm">{warning}</Text>
        </Alert>
      ))}
      <Text size="sm" fw={500}>
        Active contracts you can see
      </Text>
      {usage?.error ? (
        <ErrorAlert error={usage.error} />
      ) : !count ? (
        <Text size="sm" c="dimmed">
          Counting…
        </Text>
      ) : usage?.data?.readsNothing ? (
        <Text size="sm">
          Your rights let you read no party’s contracts, so none were counted: ask for Read as any
          party to see them.
        </Text>
      ) : usage?.templates?.length === 0 ? (
        <Text size="sm">The package has no templates, so no contracts.</Text>
      ) : (
        <Stack gap={2}>
          <Text size="sm" aria-label={`Active contracts of ${text}`}>
            {count.isComplete
              ? `${count.total.toLocaleString('en')} active`
              : `At least ${count.total.toLocaleString('en')} active (counting stopped there)`}
          </Text>
          <List size="sm">
            {Object.entries(count.byTemplate)
              .filter(([, n]) => n > 0)
              .map(([template, n]) => (
                <List.Item key={template}>
                  <Anchor component={Link} to={links.contracts(`${change.packageId}:${template}`)}>
                    {template}
                  </Anchor>
                  : {n.toLocaleString('en')}
                </List.Item>
              ))}
          </List>
        </Stack>
      )}
      <Text size="sm" fw={500}>
        Packages that depend on it
      </Text>
      {verdict.dependents.length === 0 ? (
        <Text size="sm" c="dimmed">
          None vetted on this synchronizer.
        </Text>
      ) : (
        <List size="sm">
          {verdict.dependents.map((dependent) => (
            <List.Item key={dependent.packageId}>
              <Anchor component={Link} to={links.package(dependent.packageId)}>
                {packageLabelText(dependent.packageId, dependent.label)}
              </Anchor>
              {verdict.brokenDependents.includes(dependent) ? ' — loses this dependency' : ''}
            </List.Item>
          ))}
        </List>
      )}
    </Stack>
  );
}

function AppliedResult({
  applied,
  links,
  synchronizerLabel,
  labels,
}: {
  applied: Applied;
  links: VettingPlanLinks;
  synchronizerLabel: string;
  labels: ReadonlyMap<string, PackageLabel>;
}) {
  const { response } = applied;
  const undo = inversePlan(response.pastVettedPackages, response.newVettedPackages);
  return (
    <Alert color="teal" variant="light" title={`Vetting changed on ${synchronizerLabel}`}>
      <Stack gap="xs">
        <Text size="sm" role="status">
          {applied.plan.changes
            .map(
              (change) =>
                `${change.operation} ${packageLabelText(change.packageId, labels.get(change.packageId))}`,
            )
            .join(', ')}
          {' — '}vetting serial {response.pastVettedPackages?.topologySerial ?? 'none'} →{' '}
          {response.newVettedPackages.topologySerial}.
        </Text>
        {undo.changes.length > 0 ? (
          <Group>
            <Button
              component={Link}
              variant="light"
              to={links.plan(planSearch({ plan: undo, parties: [] }))}
            >
              Plan the undo
            </Button>
            <Text size="xs" c="dimmed">
              The inverse plan restores the vetting as it was before: it is dry-run before you apply
              it.
            </Text>
          </Group>
        ) : (
          <Text size="sm">The change left the vetting as it was: there is nothing to undo.</Text>
        )}
      </Stack>
    </Alert>
  );
}
