import type { ActiveContract } from '@/api/active-contracts';
import { toCsv, type CsvValue } from '@/components/data-table/csv';
import { readDamlValue, valueToText, type ValueLimits } from '@/lib/values/daml-value';
import { isRecord } from '@/lib/values/is-record';
import { fieldType, type ContractTypes } from './contract-value-types';

// An export is for reading elsewhere: nothing is cut short.
const EXPORT_LIMITS: ValueLimits = {
  depth: 64,
  items: Number.MAX_SAFE_INTEGER,
  textLength: Number.MAX_SAFE_INTEGER,
};

/** The record whose fields are the columns: the argument, or the interface view when one is asked. */
export function columnsSource(contract: ActiveContract, isInterface: boolean): unknown {
  if (!isInterface) return contract.createArgument;
  const view = contract.interfaceView;
  return view && 'value' in view ? view.value : undefined;
}

/**
 * The listed contracts as CSV: ids, template, then one column per field of the list (or the
 * whole argument on one line when the list has no field columns), signatories, observers, time.
 */
export function contractsCsv(
  contracts: readonly ActiveContract[],
  types: ContractTypes,
  isInterface: boolean,
): string {
  const fields = types.columns ?? [];
  const header = [
    'contractId',
    'templateId',
    ...(fields.length > 0 ? fields.map((field) => field.name) : ['argument']),
    'signatories',
    'observers',
    'createdAt',
    'offset',
  ];
  const rows = contracts.map((contract): CsvValue[] => {
    const source = columnsSource(contract, isInterface);
    const argumentType = types.argumentOf(contract.templateId);
    const cells =
      fields.length > 0
        ? fields.map((field) => {
            if (!isRecord(source) || !(field.name in source)) return '';
            const type = isInterface ? field.type : fieldType(argumentType, field.name);
            return valueToText(readDamlValue(source[field.name], type, EXPORT_LIMITS));
          })
        : [valueToText(readDamlValue(source, argumentType, EXPORT_LIMITS))];
    return [
      contract.contractId,
      contract.templateId,
      ...cells,
      contract.signatories.join(' '),
      contract.observers.join(' '),
      contract.createdAt,
      contract.offset,
    ];
  });
  return toCsv(header, rows);
}

/** The listed contracts as JSON, values in the JSON API's own encoding (they can be sent back). */
export function contractsJson(contracts: readonly ActiveContract[]): string {
  return JSON.stringify(
    contracts.map((contract) => ({
      contractId: contract.contractId,
      templateId: contract.templateId,
      createArgument: contract.createArgument,
      ...(contract.contractKey === undefined ? {} : { contractKey: contract.contractKey }),
      ...(contract.interfaceView === undefined ? {} : { interfaceView: contract.interfaceView }),
      signatories: contract.signatories,
      observers: contract.observers,
      createdAt: contract.createdAt,
      offset: contract.offset,
      synchronizerId: contract.synchronizerId,
    })),
    null,
    2,
  );
}
