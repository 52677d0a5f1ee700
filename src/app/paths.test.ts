import { resolvePath } from 'react-router';
import { describe, expect, it } from 'vitest';
import { idFromRouteSegment, paths } from './paths';

/** The path a browser and react-router end up at for a link: both resolve dot segments. */
const landsOn = (link: string) =>
  resolvePath(new URL(link, 'http://console.example').pathname, '/').pathname;

describe('ids in route segments', () => {
  it('survives the URL parser and react-router for dot-only ids and route words', () => {
    for (const id of [
      '.',
      '..',
      'new',
      'import',
      '*',
      '*..',
      '**new',
      'a/b',
      'a%b',
      'alice.anderson',
      '...',
    ]) {
      const link = paths.user.to(id);
      const segment = landsOn(link).split('/')[2];
      expect(landsOn(link), id).not.toBe('/users/new');
      expect(landsOn(link), id).not.toBe(paths.usersImport.to());
      expect(idFromRouteSegment(decodeURIComponent(segment ?? '')), id).toBe(id);
    }
  });

  it('leaves ordinary ids as they were', () => {
    expect(paths.user.to('alice.anderson', 'acme')).toBe('/users/alice.anderson?idp=acme');
    expect(paths.user.to('..')).toBe('/users/*..');
    expect(paths.user.to('new')).toBe('/users/*new');
    expect(paths.user.to('import')).toBe('/users/*import');
    expect(paths.identityProvider.to('..')).toBe('/identity-providers/*..');
    expect(paths.identityProvider.to('new')).toBe('/identity-providers/*new');
    expect(paths.identityProvider.to('a/b')).toBe('/identity-providers/a%2Fb');
    expect(paths.party.to('alice::1220ab')).toBe('/parties/alice%3A%3A1220ab');
    expect(paths.package.to('upload')).toBe('/packages/*upload');
    expect(paths.contract.to('00ab')).toBe('/contracts/00ab');
  });
});

describe('link builders with a view', () => {
  it('puts the active contracts view in search params', () => {
    expect(paths.contracts.to()).toBe('/contracts');
    expect(
      paths.contracts.to({
        parties: ['alice::1220ab', 'bob'],
        offset: 42,
        template: '#pkg:Main:Iou',
        search: 'USD & co',
      }),
    ).toBe(
      '/contracts?party=alice%3A%3A1220ab&party=bob&offset=42&template=%23pkg%3AMain%3AIou&q=USD+%26+co',
    );
    expect(paths.contracts.to({ interface: '#pkg:Main:Holding' })).toBe(
      '/contracts?interface=%23pkg%3AMain%3AHolding',
    );
  });

  it('builds the composer link that prefills an exercise', () => {
    expect(paths.composer.to()).toBe('/composer');
    expect(paths.composer.to({ exercise: { contractId: '00ab', templateId: 'pkg:M:T' } })).toBe(
      '/composer?exercise=00ab&template=pkg%3AM%3AT',
    );
  });
});
