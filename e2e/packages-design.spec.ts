import {
  assembleDar,
  encodePackagePayload,
  type PackageSpec,
} from '@ledger-console/participant/daml-lf/encode-package';
import type { DamlType, DataType, Module } from '@ledger-console/participant/daml-lf/package-model';
import { fixturePackageId } from '@ledger-console/participant/testing/fixture-dars';
import { expect, test } from './fixtures';
import { assertNoAccessibilityViolations } from './helpers/overview';
import { goToUploadDar } from './helpers/packages';
import { DESIGN_SIZES, useColorScheme } from './helpers/design';

// The packages screens after the design pass (issue 16, item 5), at a desktop's and a phone's
// size: a DAR upload's success at the top of the page, the list with the DAR's dependencies under
// it and the standard library hidden until asked for, an unknown package's not-found state, axe in
// light and dark mode.

// ── A DAR as `damlc` would build it: a main package, a library of the project, and two packages
// named as the Daml SDK's (the fixture DARs' dependencies have made-up names), built by the
// project's own encoder. The same bytes every run, so uploading it again changes nothing. ──

const INT64: DamlType = { kind: 'prim', prim: 'INT64', args: [] };
const record = (name: string, fields: readonly [string, DamlType][], params: string[] = []) =>
  ({
    kind: 'record',
    name,
    params,
    serializable: true,
    fields: fields.map(([fieldName, type]) => ({ name: fieldName, type })),
  }) satisfies DataType;
const moduleOf = (name: string, dataTypes: readonly DataType[]): Module => ({
  name,
  dataTypes,
  synonyms: [],
  templates: [],
  interfaces: [],
});
const con = (packageId: string, module: string, name: string, ...args: DamlType[]): DamlType => ({
  kind: 'con',
  tycon: { packageId, module, name },
  args,
});
const typeVar = (name: string): DamlType => ({ kind: 'var', name, args: [] });

const PRIM_TYPES: PackageSpec = {
  name: 'daml-prim-DA-Types',
  version: '1.0.0',
  modules: [
    moduleOf('DA.Types', [
      record(
        'Tuple2',
        [
          ['_1', typeVar('a')],
          ['_2', typeVar('b')],
        ],
        ['a', 'b'],
      ),
    ]),
  ],
};
const STDLIB: PackageSpec = {
  name: 'daml-stdlib',
  version: '3.4.0',
  modules: [moduleOf('DA.Time.Types', [record('RelTime', [['microseconds', INT64]])])],
};
const MODEL: PackageSpec = {
  name: 'design-demo-model',
  version: '1.0.0',
  modules: [
    moduleOf('Design.Model', [
      record('Amount', [
        ['value', INT64],
        ['settlesIn', con(fixturePackageId(STDLIB), 'DA.Time.Types', 'RelTime')],
      ]),
    ]),
  ],
};
const MAIN: PackageSpec = {
  name: 'design-demo',
  version: '1.0.0',
  modules: [
    moduleOf('Design.Main', [
      record('Order', [
        ['amount', con(fixturePackageId(MODEL), 'Design.Model', 'Amount')],
        ['legs', con(fixturePackageId(PRIM_TYPES), 'DA.Types', 'Tuple2', INT64, INT64)],
      ]),
    ]),
  ],
};

function designDar() {
  const packages = [MAIN, MODEL, PRIM_TYPES, STDLIB].map((spec) => {
    const payload = encodePackagePayload(spec);
    return { spec, payload, packageId: fixturePackageId(spec) };
  });
  const bytes = assembleDar(packages, { damlcLayout: true, sdkVersion: '3.4.0' });
  return {
    mainPackageId: fixturePackageId(MAIN),
    upload: {
      name: 'design-demo-1.0.0.dar',
      mimeType: 'application/octet-stream',
      buffer: Buffer.from(bytes),
    },
  };
}

const UNKNOWN_PACKAGE = 'ab'.repeat(32);

for (const size of DESIGN_SIZES) {
  test.describe(`packages at ${size.name} size`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });

    test('upload a DAR: the success at the top, then the list with its dependencies under it and the standard library behind a toggle', async ({
      page,
    }) => {
      test.setTimeout(90_000);
      const dar = designDar();

      await goToUploadDar(page);
      await page.getByLabel('Choose a DAR file').setInputFiles(dar.upload);
      const preview = page.getByRole('region', { name: 'In this DAR', exact: true });
      await expect(preview.getByRole('group', { name: 'Main package' })).toHaveText(
        /design-demo 1\.0\.0$/,
      );
      await page.getByRole('button', { name: 'Upload', exact: true }).click();

      // Where the user looks: at the top of the page, focused and on screen.
      const uploaded = page.getByRole('alert', { name: 'Uploaded' });
      await expect(uploaded).toContainText('design-demo 1.0.0 is stored on the participant');
      await expect(uploaded).toBeFocused();
      await expect(uploaded).toBeInViewport();
      await uploaded.getByRole('link', { name: 'See it in the packages list' }).click();

      await expect(page).toHaveURL(new RegExp(`/packages\\?uploaded=${dar.mainPackageId}$`));
      const table = page.getByRole('table', { name: 'Packages' });
      // First in the list, marked, with its own library under it (once its archives are read).
      const group = table.getByRole('rowgroup', { name: 'design-demo and its dependencies' });
      await expect(group.getByRole('rowheader')).toHaveText([
        /^design-demo\s*Just uploaded$/,
        'design-demo-model',
      ]);
      await expect(table.getByRole('rowgroup').nth(1)).toHaveAccessibleName(
        'design-demo and its dependencies',
      );
      // The standard library is hidden until asked for.
      await expect(table.getByRole('link', { name: 'daml-stdlib', exact: true })).toHaveCount(0);
      await expect(table.getByRole('link', { name: 'daml-prim-DA-Types' })).toHaveCount(0);
      const toggle = page.getByRole('switch', { name: /^Show standard library \(\d+\)$/ });
      await expect(toggle).not.toBeChecked();
      await toggle.click();
      await expect(toggle).toBeChecked();
      await expect(page).toHaveURL(/[?&]stdlib=shown/);
      const library = table.getByRole('rowgroup', { name: 'Standard library' });
      await expect(library.getByRole('link', { name: 'daml-stdlib', exact: true })).toBeVisible();
      await expect(library.getByRole('link', { name: 'daml-prim-DA-Types' })).toBeVisible();

      for (const scheme of ['light', 'dark'] as const) {
        // The reload keeps the toggle: it is in the URL.
        await useColorScheme(page, scheme);
        await expect(
          page.getByRole('switch', { name: /^Show standard library \(\d+\)$/ }),
        ).toBeChecked();
        await expect(
          table.getByRole('rowgroup', { name: 'design-demo and its dependencies' }),
        ).toBeVisible();
        await assertNoAccessibilityViolations(page);
      }
    });

    test('an unknown package says so once, with the way back to the packages', async ({ page }) => {
      await page.goto(`/packages/${UNKNOWN_PACKAGE}`);
      const state = page.getByRole('region', { name: `No package “${UNKNOWN_PACKAGE}”` });
      await expect(state).toBeVisible();
      // Nothing of a stored package: no vetting to change, no repeated "not known".
      await expect(page.getByRole('button', { name: /^(Vet|Unvet|Retry)/ })).toHaveCount(0);
      await expect(page.getByText(/stored on this participant/)).toHaveCount(0);
      await expect(page.getByRole('link', { name: 'Back to packages' })).toBeVisible();

      for (const scheme of ['light', 'dark'] as const) {
        await useColorScheme(page, scheme);
        await expect(state).toBeVisible();
        await assertNoAccessibilityViolations(page);
      }

      await state.getByRole('link', { name: 'Go to packages' }).click();
      await expect(page.getByRole('table', { name: 'Packages' })).toBeVisible();
    });
  });
}
