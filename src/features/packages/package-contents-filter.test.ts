import { describe, expect, it } from 'vitest';
import type { Choice, DamlType, Module } from '@/api/daml-lf-decoder';
import { filterModules, moduleSummary } from './package-contents-filter';

const unit: DamlType = { kind: 'prim', prim: 'UNIT', args: [] };
const choice = (name: string): Choice => ({
  name,
  consuming: true,
  argType: unit,
  returnType: unit,
});
const tycon = (module: string, name: string) => ({ packageId: 'p', module, name });

const modules: Module[] = [
  {
    name: 'Finance.Trade',
    templates: [
      {
        name: 'Order',
        tycon: tycon('Finance.Trade', 'Order'),
        fields: [],
        choices: [choice('Fill'), choice('Archive')],
        implements: [],
      },
      {
        name: 'Quote',
        tycon: tycon('Finance.Trade', 'Quote'),
        fields: [],
        choices: [choice('Archive')],
        implements: [],
      },
    ],
    interfaces: [
      {
        name: 'Tradable',
        tycon: tycon('Finance.Trade', 'Tradable'),
        choices: [choice('Settle')],
        requires: [],
      },
    ],
    dataTypes: [
      { kind: 'record', name: 'Order', params: [], serializable: true, fields: [] },
      { kind: 'enum', name: 'Side', params: [], serializable: true, constructors: ['Buy', 'Sell'] },
    ],
    synonyms: [],
  },
  { name: 'Util', templates: [], interfaces: [], dataTypes: [], synonyms: [] },
];

const names = (found: Module[]) =>
  found.map((module) => ({
    module: module.name,
    templates: module.templates.map((t) => t.name),
    interfaces: module.interfaces.map((i) => i.name),
    dataTypes: module.dataTypes.map((d) => d.name),
  }));

describe('filterModules', () => {
  it('keeps everything for an empty filter', () => {
    expect(filterModules(modules, '  ')).toEqual(modules);
  });

  it('keeps a whole module whose name matches', () => {
    expect(filterModules(modules, 'finance')[0]).toBe(modules[0]);
  });

  it('keeps templates and interfaces by their own or a choice’s name, and data types by name', () => {
    expect(names(filterModules(modules, 'FILL'))).toEqual([
      { module: 'Finance.Trade', templates: ['Order'], interfaces: [], dataTypes: [] },
    ]);
    expect(names(filterModules(modules, 'settle'))).toEqual([
      { module: 'Finance.Trade', templates: [], interfaces: ['Tradable'], dataTypes: [] },
    ]);
    expect(names(filterModules(modules, 'order'))).toEqual([
      { module: 'Finance.Trade', templates: ['Order'], interfaces: [], dataTypes: ['Order'] },
    ]);
    // A matching template keeps all its choices, for context.
    expect(filterModules(modules, 'fill')[0]?.templates[0]?.choices).toHaveLength(2);
  });

  it('drops modules with nothing that matches', () => {
    expect(filterModules(modules, 'nothing-like-this')).toEqual([]);
  });
});

describe('moduleSummary', () => {
  it('counts what a module declares', () => {
    const [finance, util] = modules;
    if (!finance || !util) throw new Error('two modules');
    expect(moduleSummary(finance)).toBe('2 templates · 1 interface · 2 data types');
    expect(moduleSummary(util)).toBe('No declarations');
  });
});
