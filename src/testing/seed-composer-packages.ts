import { encodeDar, templatePackageSpec } from '@ledger-console/participant/daml-lf/encode-package';
import type { DamlType, Field, PrimType } from '@ledger-console/participant/daml-lf/package-model';
import type { Sandbox } from './sandbox-network';
import { sandboxSteps } from './sandbox-steps';

const lf = (prim: PrimType, ...args: DamlType[]): DamlType => ({ kind: 'prim', prim, args });
const own = (name: string, ...args: DamlType[]): DamlType => ({
  kind: 'con',
  tycon: { packageId: '', module: 'Main', name },
  args,
});
const field = (name: string, type: DamlType): Field => ({ name, type });

/** The package name of {@link seedFormTypesPackage}: templates are `#composer-forms:Main:<Name>`. */
export const FORM_TYPES_PACKAGE = 'composer-forms';

/**
 * A small package whose templates have an enum and a variant field, which the demo package lacks:
 * `Order { owner: Party, color: Color (Red | Green), shape: Shape (Circle Int64 | Square Numeric),
 * result: Outcome Int64 }` where `Outcome a = Done a | Failed Text` has a type parameter,
 * and `Note { owner: Party, text: Text }`. Built by the sandbox's encoder, uploaded and vetted.
 */
export async function seedFormTypesPackage(sandbox: Sandbox): Promise<void> {
  const spec = templatePackageSpec({
    name: FORM_TYPES_PACKAGE,
    version: '1.0.0',
    templates: [
      {
        name: 'Order',
        fields: [
          field('owner', lf('PARTY')),
          field('color', own('Color')),
          field('shape', own('Shape')),
          field('result', own('Outcome', lf('INT64'))),
        ],
      },
      { name: 'Note', fields: [field('owner', lf('PARTY')), field('text', lf('TEXT'))] },
    ],
    dataTypes: [
      {
        kind: 'enum',
        name: 'Color',
        params: [],
        serializable: true,
        constructors: ['Red', 'Green'],
      },
      {
        kind: 'variant',
        name: 'Shape',
        params: [],
        serializable: true,
        constructors: [
          field('Circle', lf('INT64')),
          field('Square', lf('NUMERIC', { kind: 'nat', value: 10 })),
        ],
      },
      {
        kind: 'variant',
        name: 'Outcome',
        params: ['a'],
        serializable: true,
        constructors: [
          field('Done', { kind: 'var', name: 'a', args: [] }),
          field('Failed', lf('TEXT')),
        ],
      },
    ],
  });
  const { bytes } = await encodeDar([spec]);
  await sandboxSteps(sandbox).uploadDar(new Uint8Array(bytes), { vetAllPackages: true });
}
