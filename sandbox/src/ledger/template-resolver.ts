import { comparePackageVersions } from '@ledger-console/participant/daml-lf/package-version';
import type {
  DecodedPackage,
  Interface,
  Template,
} from '@ledger-console/participant/daml-lf/package-model';
import { SandboxError, invalidArgument } from '../errors/sandbox-error';
import type { PackagesStore } from '../store/packages-store';
import { isValidPackageId } from '../validation/identifiers';
import type { DecodedPackages } from './decoded-packages';
import { DEMO_BEHAVIOUR, DEMO_INTERFACES, DEMO_MODULES, DEMO_PACKAGE_NAME } from './demo-package';
import type { ExecutableInterface, ExecutableTemplate } from './interpreter';

const PACKAGE_NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;

/** The three parts of `<package-ref>:<Module>:<Entity>`, already checked to be three. */
export type TemplateRef = { packageRef: string; moduleName: string; entityName: string };

export function splitTemplateId(templateId: string): TemplateRef | undefined {
  const parts = templateId.split(':');
  if (parts.length !== 3 || parts.some((part) => part === '')) return undefined;
  const [packageRef = '', moduleName = '', entityName = ''] = parts;
  return { packageRef, moduleName, entityName };
}

/**
 * The JSON layer's template resolution, done before the command reaches the ledger (§7.1):
 * package-name (`#name`) or package-id references, answered with the real server's errors. Only
 * templates of the built-in package can be executed; those of uploaded packages are found but
 * refused with SANDBOX_CANNOT_INTERPRET, never faked.
 */
export function createTemplateResolver(
  packages: PackagesStore,
  decode: DecodedPackages,
  demoPackageId: () => string,
) {
  const notFound = (templateId: string) =>
    new SandboxError(
      'TEMPLATES_OR_INTERFACES_NOT_FOUND',
      `Templates do not exist: [${templateId}].`,
      {
        resources: [['TEMPLATE_ID', templateId]],
        origin: 'json',
      },
    );

  const findTemplate = (pkg: DecodedPackage, ref: TemplateRef): Template | undefined =>
    pkg.modules
      .find((module) => module.name === ref.moduleName)
      ?.templates.find((template) => template.name === ref.entityName);
  const findInterface = (
    modules: DecodedPackage['modules'],
    ref: TemplateRef,
  ): Interface | undefined =>
    modules
      .find((module) => module.name === ref.moduleName)
      ?.interfaces.find((iface) => iface.name === ref.entityName);

  /** Resolves to the package id the reference selects (the newest version for a name). */
  const selectPackage = (ref: TemplateRef, templateId: string): string => {
    if (ref.packageRef.startsWith('#')) {
      const name = ref.packageRef.slice(1);
      if (!PACKAGE_NAME.test(name)) {
        throw invalidArgument(
          `Value does not match the package-id or package-name formats: ${ref.packageRef}`,
          { origin: 'json' },
        );
      }
      if (name === DEMO_PACKAGE_NAME) return demoPackageId();
      const candidates = packages
        .all()
        .filter((pkg) => pkg.name === name)
        .sort((a, b) => comparePackageVersions(b.version, a.version));
      const newest = candidates[0];
      if (!newest) {
        throw new SandboxError(
          'JSON_API_PACKAGE_SELECTION_FAILED',
          `Failed to select package-id for package-name '${name}': no package with this name is known to the participant`,
          { origin: 'json' },
        );
      }
      return newest.packageId;
    }
    if (!isValidPackageId(ref.packageRef)) {
      throw invalidArgument(
        `Value does not match the package-id or package-name formats: ${ref.packageRef}`,
        { origin: 'json' },
      );
    }
    if (ref.packageRef !== demoPackageId() && !packages.metadata(ref.packageRef)) {
      throw notFound(templateId);
    }
    return ref.packageRef;
  };

  /** The interface a reference names, when it names one; undefined for anything else. */
  const interfaceOf = (ref: TemplateRef, templateId: string) => {
    const packageId = selectPackage(ref, templateId);
    if (packageId === demoPackageId()) {
      const signature = findInterface(DEMO_MODULES, ref);
      const behaviour = DEMO_INTERFACES[`${ref.moduleName}:${ref.entityName}`];
      return signature && behaviour ? { packageId, signature, behaviour } : undefined;
    }
    const pkg = decode(packageId);
    const signature = pkg && findInterface(pkg.modules, ref);
    return signature ? { packageId, signature, behaviour: undefined } : undefined;
  };

  const resolver = {
    /**
     * An ExerciseCommand's `templateId`, which may name an interface: its choices are then
     * exercised on any contract whose template implements it.
     */
    resolveExercised(
      templateId: string,
    ):
      | { kind: 'template'; template: ExecutableTemplate }
      | { kind: 'interface'; iface: ExecutableInterface } {
      const ref = splitTemplateId(templateId);
      const found = ref && interfaceOf(ref, templateId);
      if (!found) return { kind: 'template', template: resolver.resolve(templateId) };
      const qualifiedName = `${ref.moduleName}:${ref.entityName}`;
      if (!found.behaviour) {
        throw new SandboxError(
          'SANDBOX_CANNOT_INTERPRET',
          `The Ledger Console sandbox cannot run Daml code: interface ${found.packageId}:${qualifiedName} belongs to an uploaded package. Only the built-in package ${DEMO_PACKAGE_NAME} can be executed here; point the console at a real participant (--ledger URL) to run this package.`,
          { resources: [['INTERFACE_ID', `${found.packageId}:${qualifiedName}`]], origin: 'json' },
        );
      }
      return {
        kind: 'interface',
        iface: { qualifiedName, signature: found.signature, behaviour: found.behaviour },
      };
    },
    resolve(templateId: string): ExecutableTemplate {
      const ref = splitTemplateId(templateId);
      if (!ref) throw invalidArgument(`Invalid template id ${templateId}`, { origin: 'json' });
      const packageId = selectPackage(ref, templateId);
      const qualifiedName = `${ref.moduleName}:${ref.entityName}`;
      if (packageId === demoPackageId()) {
        const module = DEMO_MODULES.find((m) => m.name === ref.moduleName);
        const signature = module?.templates.find((t) => t.name === ref.entityName);
        const behaviour = DEMO_BEHAVIOUR[qualifiedName];
        if (!signature || !behaviour) throw notFound(`${packageId}:${qualifiedName}`);
        return { qualifiedName, signature, behaviour };
      }
      const pkg = decode(packageId);
      if (!pkg || !findTemplate(pkg, ref)) throw notFound(`${packageId}:${qualifiedName}`);
      throw new SandboxError(
        'SANDBOX_CANNOT_INTERPRET',
        `The Ledger Console sandbox cannot run Daml code: template ${packageId}:${qualifiedName} belongs to the uploaded package ${pkg.name} ${pkg.version}. Only templates of the built-in package ${DEMO_PACKAGE_NAME} can be executed here; point the console at a real participant (--ledger URL) to run this package.`,
        { resources: [['TEMPLATE_ID', `${packageId}:${qualifiedName}`]], origin: 'json' },
      );
    },
    /** Whether a template filter names a template the participant knows (for event formats). */
    knows(templateId: string): boolean {
      const ref = splitTemplateId(templateId);
      if (!ref) return false;
      try {
        const packageId = selectPackage(ref, templateId);
        if (packageId === demoPackageId()) {
          return DEMO_BEHAVIOUR[`${ref.moduleName}:${ref.entityName}`] !== undefined;
        }
        const pkg = decode(packageId);
        return pkg !== undefined && findTemplate(pkg, ref) !== undefined;
      } catch {
        return false;
      }
    },
    /** Whether an interface filter names an interface the participant knows. */
    knowsInterface(interfaceId: string): boolean {
      const ref = splitTemplateId(interfaceId);
      if (!ref) return false;
      try {
        return interfaceOf(ref, interfaceId) !== undefined;
      } catch {
        return false;
      }
    },
  };
  return resolver;
}

export type TemplateResolver = ReturnType<typeof createTemplateResolver>;
