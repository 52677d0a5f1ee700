import type { TypeConName } from '@ledger-console/participant/daml-lf/package-model';
import { SandboxError } from '../errors/sandbox-error';
import type { DecodedPackages } from './decoded-packages';
import {
  DEMO_INTERFACES,
  DEMO_PACKAGE_NAME,
  type InterfaceBehaviour,
  type Record_,
} from './demo-package';
import { splitTemplateId, type TemplateRef } from './template-resolver';
import type { JsonValue } from './transaction';

/** A contract's view through an interface, or the Ledger API error that kept it from one. */
export type InterfaceViewResult =
  | { ok: true; value: Record_; implementationPackageId: string }
  | { ok: false; error: SandboxError };

/** One interface a template implements, as its package declares it. */
export type InterfaceImplementation = {
  /** The interface, `<package-id>:<Module>:<Entity>` (its own package, not the template's). */
  interfaceId: string;
  /** The view of a contract of the template, from its create argument. */
  view: (argument: JsonValue) => InterfaceViewResult;
};

type Implemented = InterfaceImplementation & {
  /** The name of the interface's package, which `#name:…` references match. */
  packageName: string | undefined;
  qualifiedName: string;
};

const idOf = (tycon: TypeConName) => `${tycon.packageId}:${tycon.module}:${tycon.name}`;

/**
 * Which interfaces a template implements and what its contracts look like through them, for any
 * package in the store: the template's `implements` come from its decoded package. Views are
 * computed where the sandbox has the package's behaviour in TypeScript (the built-in package);
 * for any other package the view fails with SANDBOX_CANNOT_INTERPRET, as its choices do, since
 * the sandbox cannot evaluate the Daml-LF view expression.
 */
export function createInterfaceCatalog(decode: DecodedPackages, demoPackageId: () => string) {
  /** The TypeScript behaviour of a package's interfaces, by `Module:Entity`. */
  const behaviourOf = (packageId: string): Readonly<Record<string, InterfaceBehaviour>> =>
    packageId === demoPackageId() ? DEMO_INTERFACES : {};

  const viewOf = (
    template: TemplateRef,
    iface: TypeConName,
  ): ((argument: JsonValue) => InterfaceViewResult) => {
    const { packageRef: packageId } = template;
    const templateId = `${packageId}:${template.moduleName}:${template.entityName}`;
    // The built-in package implements only its own interfaces, so their behaviour is its own.
    const instance =
      iface.packageId === packageId
        ? behaviourOf(packageId)[`${iface.module}:${iface.name}`]?.instances[
            `${template.moduleName}:${template.entityName}`
          ]
        : undefined;
    if (instance) {
      return (argument) => ({
        ok: true,
        value: instance.view(argument as Record_),
        implementationPackageId: packageId,
      });
    }
    const pkg = decode(packageId);
    const error = new SandboxError(
      'SANDBOX_CANNOT_INTERPRET',
      `The Ledger Console sandbox cannot run Daml code: the view of interface ${idOf(iface)} for template ${templateId} is computed by the uploaded package ${pkg?.name ?? packageId} ${pkg?.version ?? ''}. Only the built-in package ${DEMO_PACKAGE_NAME} computes views here; point the console at a real participant (--ledger URL) to see this view.`,
      { resources: [['INTERFACE_ID', idOf(iface)]] },
    );
    return () => ({ ok: false, error });
  };

  // Packages never change under an id, so neither does what a template implements.
  const byTemplate = new Map<string, readonly Implemented[]>();
  const implementedBy = (templateId: string): readonly Implemented[] => {
    let found = byTemplate.get(templateId);
    if (!found) {
      const ref = splitTemplateId(templateId);
      const template =
        ref &&
        decode(ref.packageRef)
          ?.modules.find((module) => module.name === ref.moduleName)
          ?.templates.find((t) => t.name === ref.entityName);
      found =
        ref && template
          ? template.implements.map((iface) => ({
              interfaceId: idOf(iface),
              packageName: decode(iface.packageId)?.name,
              qualifiedName: `${iface.module}:${iface.name}`,
              view: viewOf(ref, iface),
            }))
          : [];
      byTemplate.set(templateId, found);
    }
    return found;
  };

  return {
    /**
     * How the template (`<package-id>:<Module>:<Entity>`) implements the interface an interface
     * filter names, by package id or by package name (`#name:…`, any package of that name);
     * undefined when it does not.
     */
    implementation(interfaceRef: string, templateId: string): InterfaceImplementation | undefined {
      const ref = splitTemplateId(interfaceRef);
      if (!ref) return undefined;
      const qualifiedName = `${ref.moduleName}:${ref.entityName}`;
      const byName = ref.packageRef.startsWith('#') ? ref.packageRef.slice(1) : undefined;
      return implementedBy(templateId).find((implemented) =>
        byName === undefined
          ? implemented.interfaceId === interfaceRef
          : implemented.packageName === byName && implemented.qualifiedName === qualifiedName,
      );
    },
  };
}

export type InterfaceCatalog = ReturnType<typeof createInterfaceCatalog>;
