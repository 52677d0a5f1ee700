import { Stack, TagsInput, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { type VettedPackage, vettingQueries } from '@/api/package-vetting';
import { sessionQueries } from '@/api/session';
import { readScopeOf } from '@/api/updates';
import { PreferenceReadiness } from './preference-readiness';
import { usePackageUsage } from './use-package-usage';
import { highestVetted, MAX_PLAN_PARTIES } from './vetting-plan-model';

export type UpgradeReadinessProps = {
  /** The DAR's main package. */
  main: { packageId: string; name: string; version: string };
  /** Every package of the DAR, main first. */
  packages: readonly { packageId: string; name: string; version: string }[];
  /** Where the upload vets; '' when the participant picks its only synchronizer. */
  synchronizerId: string;
  vetAllPackages: boolean;
};

/**
 * Next to the upload's compatibility check: when the DAR brings another version of a package
 * already vetted here, which parties `preferred-packages` would move to it once it is vetted.
 * Checked for the parties the user names and the stakeholders of the active contracts of the
 * version they use now.
 */
export function UpgradeReadiness({
  main,
  packages,
  synchronizerId,
  vetAllPackages,
}: UpgradeReadinessProps) {
  const { data: caller } = useQuery(sessionQueries.caller());
  const { data: vetting } = useQuery(vettingQueries.vetting());
  const [parties, setParties] = useState<string[]>([]);
  const entry =
    vetting?.find((candidate) => candidate.synchronizerId === synchronizerId) ??
    (synchronizerId === '' && vetting?.length === 1 ? vetting[0] : undefined);
  const before: readonly VettedPackage[] = entry?.packages ?? [];
  // The version parties are given now, by this participant's vetting: its contracts' stakeholders.
  const [now] = useState(() => Date.now());
  const current = highestVetted(before, main.name, now);
  const usage = usePackageUsage(
    current && caller ? [current.packageId] : [],
    caller ? readScopeOf(caller) : { kind: 'parties', parties: [] },
  );
  if (!current || current.packageId === main.packageId) return null;

  const after: VettedPackage[] = vetAllPackages
    ? [
        ...before,
        ...packages
          .filter((pkg) => !before.some((vetted) => vetted.packageId === pkg.packageId))
          .map((pkg) => ({
            packageId: pkg.packageId,
            packageName: pkg.name,
            packageVersion: pkg.version,
          })),
      ]
    : [...before];
  const stakeholders = usage.get(current.packageId)?.data?.stakeholders ?? [];
  const rows = [...new Set([...parties, ...stakeholders])]
    .slice(0, MAX_PLAN_PARTIES)
    .map((party) => ({ party, packageName: main.name }));

  return (
    <Stack gap="xs" component="section" aria-label="Upgrade readiness">
      <Text size="sm" fw={600}>
        Upgrade readiness: {main.name} {current.packageVersion} → {main.version}
      </Text>
      <Text size="sm" c="dimmed">
        {vetAllPackages
          ? 'Once this DAR is vetted, preferred-packages selects the highest version every participant hosting a party has vetted.'
          : 'The upload does not vet the DAR: parties stay on the version they use until it is vetted.'}
      </Text>
      <TagsInput
        label="Parties to check"
        description="The stakeholders of the current version's active contracts are checked too."
        placeholder="Party id"
        value={parties}
        maxTags={MAX_PLAN_PARTIES}
        onChange={setParties}
        maw={640}
      />
      <PreferenceReadiness
        rows={rows}
        synchronizerId={entry?.synchronizerId ?? synchronizerId}
        vettingBefore={before}
        vettingAfter={after}
        caption={`Which version of ${main.name} each party would be given`}
        emptyText="No party to check: name parties above, or no active contract uses the current version."
      />
    </Stack>
  );
}
